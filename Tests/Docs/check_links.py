#!/usr/bin/env python3
"""Every relative link of the documentation leads somewhere: README.md, docs/**/*.md and
Benchmarks/*.md. A link's file or folder must exist, and its #anchor must be a heading of the
Markdown file it names (or of the page itself), made into an id as GitHub makes it.

    python3 Tests/Docs/check_links.py           # prints each broken link, exits 1 if any
    python3 Tests/Docs/check_links.py --self-test

Python's standard library only, so that it runs on a fresh machine."""

import re
import sys
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$")
# `](target)` or `](<target>)`, with an optional title; images too.
INLINE_LINK = re.compile(r"\]\(\s*(<[^>\n]*>|[^)\s]+)(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)")
REFERENCE_DEFINITION = re.compile(r"^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)")
HTML_ID = re.compile(r"<a\s[^>]*\b(?:id|name)=\"([^\"]+)\"")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
LINE_ANCHOR = re.compile(r"^L\d+(-L\d+)?$")


def documentation_files():
    """The Markdown files whose links are checked, relative to the repository."""
    files = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    files += sorted((ROOT / "Benchmarks").glob("*.md"))
    return [path for path in files if path.is_file()]


def without_code_spans(line):
    """The line with each inline code span blanked, so that a link inside one is no link."""
    result, index = [], 0
    while index < len(line):
        if line[index] == "`":
            run = len(line[index:]) - len(line[index:].lstrip("`"))
            close = line.find("`" * run, index + run)
            # A closing run must be exactly as long as the opening one.
            while close != -1 and line[close + run : close + run + 1] == "`":
                close = line.find("`" * run, close + run + 1)
            if close == -1:
                result.append(line[index : index + run])
                index += run
                continue
            result.append(" " * (close + run - index))
            index = close + run
        else:
            result.append(line[index])
            index += 1
    return "".join(result)


def markdown_lines(text):
    """Each line outside fenced code blocks, with its 1-based number."""
    fence = None
    for number, line in enumerate(text.split("\n"), start=1):
        match = FENCE.match(line)
        if fence:
            if match and match.group(1)[0] == fence[0] and len(match.group(1)) >= len(fence):
                fence = None
            continue
        if match:
            fence = match.group(1)
            continue
        yield number, line


def heading_text(markdown):
    """What a reader sees of a heading: code spans' text, links' text, no emphasis or tags."""
    text = re.sub(r"!\[([^\]]*)\]\([^)]*\)", "", markdown)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"<[^>]+>", "", text)
    text = text.replace("`", "")
    text = re.sub(r"(\*{1,3}|~~)", "", text)
    text = re.sub(r"(?<![A-Za-z0-9])_{1,3}|_{1,3}(?![A-Za-z0-9])", "", text)
    return text.strip()


def slug(text):
    """GitHub's id for a heading: lowercase; letters, marks, digits, `_` and `-` kept, each
    space a `-`, everything else dropped."""
    kept = []
    for character in text.lower():
        category = unicodedata.category(character)
        if character == " ":
            kept.append("-")
        elif character in "-_" or category[0] in "LMN":
            kept.append(character)
    return "".join(kept)


def anchors_of(path, cache={}):
    """The ids of a Markdown file's headings, repeats numbered -1, -2 …, and its HTML ids."""
    if path not in cache:
        ids, counts = set(), {}
        for _, line in markdown_lines(path.read_text(encoding="utf-8")):
            ids.update(HTML_ID.findall(line))
            match = HEADING.match(line)
            if not match:
                continue
            base = slug(heading_text(match.group(2)))
            anchor = base
            while anchor in ids:
                counts[base] = counts.get(base, 0) + 1
                anchor = f"{base}-{counts[base]}"
            ids.add(anchor)
        cache[path] = ids
    return cache[path]


def links_of(path):
    """Each link target of a Markdown file, with its line number."""
    for number, line in markdown_lines(path.read_text(encoding="utf-8")):
        line = without_code_spans(line)
        targets = [match.group(1) for match in INLINE_LINK.finditer(line)]
        definition = REFERENCE_DEFINITION.match(line)
        if definition:
            targets.append(definition.group(1))
        for target in targets:
            if target.startswith("<") and target.endswith(">"):
                target = target[1:-1]
            yield number, target


def problem(source, target):
    """Why `target`, written in `source`, leads nowhere; None when it leads somewhere."""
    if SCHEME.match(target) or target.startswith("//"):
        return None
    address, _, anchor = target.partition("#")
    address = address.split("?", 1)[0]
    destination = (source.parent / address).resolve() if address else source
    if not destination.exists():
        return f"no such file or folder: {destination.relative_to(ROOT) if destination.is_relative_to(ROOT) else destination}"
    if not anchor:
        return None
    if destination.is_dir():
        destination = destination / "README.md"
        if not destination.is_file():
            return "an anchor into a folder without README.md"
    if destination.suffix != ".md":
        return None if LINE_ANCHOR.match(anchor) else f"#{anchor} into a file that is not Markdown"
    if anchor not in anchors_of(destination):
        return f"no heading of {destination.relative_to(ROOT)} has the id '{anchor}'"
    return None


def broken_links():
    """Each broken link as `path:line: target: why`."""
    found = []
    for path in documentation_files():
        for number, target in links_of(path):
            why = problem(path, target)
            if why:
                found.append(f"{path.relative_to(ROOT)}:{number}: {target}: {why}")
    return found


def self_test():
    """GitHub's ids for headings it is known to give them for."""
    cases = {
        "`fruitsite build`": "fruitsite-build",
        "Site config: `fruitsite.yml`": "site-config-fruitsiteyml",
        'How search matches ("fold-v1")': "how-search-matches-fold-v1",
        "Live rebuilds: `serve` and `hugo server`": "live-rebuilds-serve-and-hugo-server",
        "A visitor's first query": "a-visitors-first-query",
        "Äpfel & Birnen": "äpfel--birnen",
        "snake_case and *emphasis*": "snake_case-and-emphasis",
    }
    failures = [
        f"{text!r}: {slug(heading_text(text))!r}, not {want!r}"
        for text, want in cases.items()
        if slug(heading_text(text)) != want
    ]
    for failure in failures:
        print(failure, file=sys.stderr)
    return 1 if failures else 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    if self_test():
        return 1
    broken = broken_links()
    for line in broken:
        print(line, file=sys.stderr)
    count = len(documentation_files())
    if broken:
        print(f"{len(broken)} broken links in {count} files", file=sys.stderr)
        return 1
    print(f"Every relative link and anchor of {count} files leads somewhere")
    return 0


if __name__ == "__main__":
    sys.exit(main())
