"""What a rebuild did to an output folder, by content and by what it wrote.

    before = OutputFiles(folder)   # every file's bytes hashed once
    ... a build into the folder ...
    after = before.again()         # only the files written since are read
    changed, rewritten, renamed = after.changes_since(before)

A file counts as *changed* when its bytes differ, or when it was added or removed; as
*rewritten* when it was written (a new inode, or a new modification time) but holds the bytes
it held before; as *renamed* when it was added with the bytes of a file removed, written again
under another name (it is changed too). fruitsite never writes a file in place: a changed file
is a new inode linked into a spare copy of the site, which is swapped in. The change time is no
sign of a write, as linking a file into the spare sets it; but a file whose inode and times are
all as before holds the same bytes, which are then not read again.
"""

import hashlib
import os


class OutputFiles:
    """Every file below `folder` (folders themselves are not counted), each with its inode,
    times, size and a hash of its bytes."""

    def __init__(self, folder, known=None):
        self.folder = folder
        # path below folder -> (identity, digest); identity: (inode, mtime, ctime, size).
        self.files = {}
        for parent, _, names in os.walk(folder):
            for name in names:
                path = os.path.join(parent, name)
                info = os.lstat(path)
                identity = (info.st_ino, info.st_mtime_ns, info.st_ctime_ns, info.st_size)
                relative = os.path.relpath(path, folder)
                last = known.get(relative) if known else None
                digest = last[1] if last and last[0] == identity else self.digest(path)
                self.files[relative] = (identity, digest)

    @staticmethod
    def digest(path):
        with open(path, "rb") as file:
            return hashlib.blake2b(file.read(), digest_size=16).digest()

    def again(self):
        """The folder as it is now, reading only the files whose inode or times changed."""
        return OutputFiles(self.folder, self.files)

    def changes_since(self, before):
        """(files changed, files rewritten, files renamed) since `before`: counts of the three
        lists below."""
        return (len(self.changed_since(before)), len(self.rewritten_since(before)),
                len(self.renamed_since(before)))

    def changed_since(self, before):
        """The paths added, removed or holding other bytes since `before`."""
        return sorted(path for path in self.files.keys() | before.files.keys()
                      if self.files.get(path, (0, None))[1] != before.files.get(path, (0, None))[1])

    def rewritten_since(self, before):
        """The paths written since `before` that hold the bytes they held then."""
        return sorted(path for path, now in self.files.items()
                      if path in before.files and now[1] == before.files[path][1]
                      and now[0][:2] != before.files[path][0][:2])

    def renamed_since(self, before):
        """The paths added since `before` with the bytes of a path removed since: a file
        written again under another name."""
        removed = {then[1] for path, then in before.files.items() if path not in self.files}
        return sorted(path for path, now in self.files.items()
                      if path not in before.files and now[1] in removed)

    def __len__(self):
        return len(self.files)
