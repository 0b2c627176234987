import Foundation
import FruitsiteCore
import TestSupport
import Testing

/// A rebuild writes only the files whose bytes change: after each kind of edit that `make
/// bench` times, no file of the output folder is written again with the bytes it had, at its
/// path or under another name.
@Suite struct UnchangedFilesTests {
    /// Every file of a folder: its inode and modification time, which a write changes (a
    /// build writes a changed file anew and renames or swaps it in), and its bytes.
    struct Snapshot {
        var files: [String: (inode: UInt64, modified: timespec, bytes: Data)] = [:]

        init(_ root: String) throws {
            for path in filesBelow(root) {
                var info = stat()
                #expect(lstat(root + "/" + path, &info) == 0, "cannot stat \(path)")
                let bytes = try Data(contentsOf: URL(fileURLWithPath: root + "/" + path))
                files[path] = (UInt64(info.st_ino), info.st_mtim, bytes)
            }
        }

        /// The files written since `before` whose bytes are those they had then.
        func rewritten(since before: Snapshot) -> [String] {
            files.compactMap { path, now in
                guard let then = before.files[path], now.bytes == then.bytes else { return nil }
                let isWritten =
                    now.inode != then.inode || now.modified.tv_sec != then.modified.tv_sec
                    || now.modified.tv_nsec != then.modified.tv_nsec
                return isWritten ? path : nil
            }.sorted()
        }

        /// The files added since `before` with the bytes of a file removed since: written
        /// again under another name.
        func renamed(since before: Snapshot) -> [String] {
            let removed = Set(
                before.files.compactMap { path, then in files[path] == nil ? then.bytes : nil })
            return files.compactMap { path, now in
                before.files[path] == nil && removed.contains(now.bytes) ? path : nil
            }.sorted()
        }
    }

    /// The nine edits of the rebuild benchmark (`Benchmarks/bench.py`), made to the sample,
    /// in that order: each rebuild after one writes no file with the bytes it had, with
    /// listings of one page or several, and either kind of search index.
    @Test(arguments: [
        "", "pageSize: 5\n", "search: {index: sharded}\n",
        "pageSize: 5\nsearch: {index: sharded}\n",
    ])
    func noEditRewritesAFileWithTheBytesItHad(config: String) throws {
        let project = try IncrementalBuildTests.Project()
        defer { project.folder.remove() }
        try project.folder.write("fruitsite.yml", "baseURL: https://example.org/\n" + config)
        let output = project.folder.path + "/Output"
        // An edit that replaces `from` with `to` in one entry.
        func replacing(_ from: String, with to: String, in path: String) -> () throws -> Void {
            { try project.edit(path) { $0.replacingOccurrences(of: from, with: to) } }
        }
        let kiwi = "Content/kiwi.md"
        let edits: [(String, () throws -> Void)] = [
            ("body text", { try project.edit("Content/apple.md") { $0 + "\nMore.\n" } }),
            ("name", replacing("name: Kiwi", with: "name: Zesty Kiwi", in: kiwi)),
            ("emoji", replacing("🥝", with: "🍒", in: kiwi)),
            ("vitamins", replacing("vitamins: [C, K, E]", with: "vitamins: B12, D", in: kiwi)),
            ("category", replacing("Grapes & Vines", with: "Berries", in: kiwi)),
            (
                "add a file",
                {
                    try project.folder.write(
                        "Content/zucchini.md",
                        "---\nname: Zucchini\ncategory: Melons\n---\nA fruit, botanically.\n")
                }
            ),
            (
                "delete a file",
                {
                    try FileManager.default.removeItem(
                        atPath: project.folder.path + "/Content/banana.md")
                }
            ),
            (
                "rename a file",
                { try project.move("Content/cherry.md", "Content/cherry-renamed.md") }
            ),
            (
                "draft flag",
                replacing("category:", with: "draft: true\ncategory:", in: "Content/pear.md")
            ),
        ]
        try project.build()
        for (name, edit) in edits {
            let before = try Snapshot(output)
            try edit()
            try project.build()
            let after = try Snapshot(output)
            let rewritten = after.rewritten(since: before)
            #expect(rewritten.isEmpty, "\(name): written with the bytes they had: \(rewritten)")
            let renamed = after.renamed(since: before)
            #expect(renamed.isEmpty, "\(name): written under another name: \(renamed)")
        }
    }
}
