import Foundation
import TestSupport
import Testing

@testable import FruitsiteCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `init` and `new` fail at each write they make, and leave nothing: the next run succeeds.
@Suite struct NewFilesTests {
    /// A writer that writes half of the `failing`th file (counting from 0), then fails as a
    /// full disk does, and writes the others whole.
    final class FailingWriter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        let failing: Int

        init(failing: Int) { self.failing = failing }

        var writes: Int { lock.withLock { count } }

        var writer: NewFiles.Writer {
            { path, bytes in
                let index = self.lock.withLock {
                    defer { self.count += 1 }
                    return self.count
                }
                guard index == self.failing else { return try NewFiles.systemWriter(path, bytes) }
                try NewFiles.systemWriter(path, Array(bytes.prefix(bytes.count / 2)))
                throw PathError(path: path, error: SystemError(code: ENOSPC))
            }
        }
    }

    @Test(arguments: [false, true])
    func initLeavesNothingWhereverAWriteFails(intoAnEmptyFolder: Bool) throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        // A folder to make, with a parent to make too, or one that is there and empty.
        let site = root.path + (intoAnEmptyFolder ? "/site" : "/sites/mine")
        if intoAnEmptyFolder {
            try FileManager.default.createDirectory(
                atPath: site, withIntermediateDirectories: false)
        }
        let fileCount = try SiteScaffold.create(at: root.path + "/count").count
        try FileManager.default.removeItem(atPath: root.path + "/count")
        for failing in 0..<fileCount {
            let writer = FailingWriter(failing: failing)
            #expect(throws: BuildFailure.self) {
                try SiteScaffold.create(at: site, writer: writer.writer)
            }
            #expect(writer.writes == failing + 1)
            #expect(filesBelow(root.path).isEmpty, "write \(failing)")
            let left = try FileManager.default.contentsOfDirectory(atPath: root.path)
            #expect(left == (intoAnEmptyFolder ? ["site"] : []), "write \(failing)")
        }
        #expect(try SiteScaffold.create(at: site).count == fileCount)
        #expect(filesBelow(site).count == fileCount)
    }

    @Test func newLeavesNoEntryWhenItsWriteFails() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try folder.write("Content/apple.md", "---\nname: Apple\ncategory: Pome\n---\n")
        let content = folder.path + "/Content"
        let entry = NewEntry(name: "Fig", category: "Figs")
        #expect(throws: BuildFailure.self) {
            try entry.write(
                into: content, config: SiteConfig(), entries: nil,
                writer: FailingWriter(failing: 0).writer)
        }
        #expect(filesBelow(content) == ["apple.md"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: content) == ["apple.md"])
        let (path, warnings) = try entry.write(into: content, config: SiteConfig(), entries: nil)
        #expect(warnings.isEmpty)
        #expect(try folder.read("Content/fig.md") == entry.text)
        #expect(path == content + "/fig.md")
    }

    /// An entry of the same name made while `new` writes its own stays as it is.
    @Test func newNeverReplacesAnEntryMadeMeanwhile() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try folder.write("Content/apple.md", "---\nname: Apple\ncategory: Pome\n---\n")
        let content = folder.path + "/Content"
        let theirs = "---\nname: Fig\ncategory: Theirs\n---\n"
        let failure = #expect(throws: BuildFailure.self) {
            try NewEntry(name: "Fig", category: "Figs").write(
                into: content, config: SiteConfig(), entries: nil,
                writer: { path, bytes in
                    try folder.write("Content/fig.md", theirs)
                    try NewFiles.systemWriter(path, bytes)
                })
        }
        #expect(failure?.diagnostics.first?.message.contains("File exists") == true)
        #expect(try folder.read("Content/fig.md") == theirs)
        #expect(filesBelow(content) == ["apple.md", "fig.md"])
    }
}
