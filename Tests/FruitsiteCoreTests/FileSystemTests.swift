import Foundation
import TestSupport
import Testing

@testable import FruitsiteCore

/// The disk's primitives, which the rest trusts: statuses taken in bulk, whole-file reads,
/// and the hash of the saved model's blocks.
@Suite struct FileSystemTests {
    /// Statuses taken folder by folder are those taken path by path, whatever the mix:
    /// several folders, folders met again, missing files and folders, a link, a folder,
    /// odd paths.
    @Test func statusesInBulkAreThoseOfEachPath() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        for name in ["a/1.md", "a/2.md", "b/1.md", "b/c/1.md", "a/3.md"] {
            try folder.write(name, name)
        }
        try FileManager.default.createSymbolicLink(
            atPath: folder.path + "/b/link.md", withDestinationPath: "../a/1.md")
        let root = folder.path
        var paths = [
            "a/1.md", "a/2.md", "b/1.md", "a/3.md", "b/c/1.md", "b/link.md", "a/gone.md",
            "nowhere/1.md", "b/c", "a/1.md",
        ].map { root + "/" + $0 }
        // The root, paths that end with a slash or double one, and a bare name.
        paths += ["/", root, root + "/", root + "/a/", root + "//a//1.md", "no-such-\(UUID())"]
        // Enough paths for the work to be shared between threads.
        paths += (0..<500).map { root + ($0 % 3 == 0 ? "/a/\($0 % 4).md" : "/b/1.md") }

        let statuses = FileStatus.statuses(of: PathList(paths))
        #expect(statuses == paths.map { FileStatus.of($0) })
        #expect(statuses[0] != nil && statuses[6] == nil && statuses[7] == nil)
        // The link is followed, as `stat` does.
        #expect(statuses[5]?.inode == statuses[0]?.inode)
    }

    /// A file is read whole up to its limit, and refused past it.
    @Test(arguments: [0, 1, 4095, 4096, 100_000])
    func readsAFileWholeUpToItsLimit(size: Int) throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let text = String((0..<size).map { Character(UnicodeScalar(97 + $0 % 26)!) })
        try folder.write("file", text)
        let path = folder.path + "/file"
        #expect(try FileSystem.readBytes(path) == Array(text.utf8))
        #expect(try FileSystem.readBytes(path, limit: size) == Array(text.utf8))
        if size > 0 {
            #expect(throws: UnreadableFile.self) { try FileSystem.readBytes(path, limit: size - 1) }
        }
    }

    #if os(Linux)
        /// The size `fstat` gives is a hint, not where reading stops: a file in `/proc` says
        /// it holds 0 bytes and is read to its end all the same.
        @Test func readsPastTheSizeTheFileReported() throws {
            var info = stat()
            #expect(stat("/proc/self/status", &info) == 0 && info.st_size == 0)
            let text = String(
                decoding: try FileSystem.readBytes("/proc/self/status"), as: UTF8.self)
            #expect(text.hasPrefix("Name:") && text.contains("\nPid:"))
        }
    #endif

    /// The wide hash sees every byte, in every lane and in the tail after the last whole
    /// stride, and its length.
    @Test func theWideHashSeesEveryByte() {
        let bytes = (0..<101).map { UInt8(truncatingIfNeeded: $0 &* 37) }
        func hash(_ bytes: [UInt8]) -> UInt64 {
            bytes.withUnsafeBytes { StableHasher.hash(wide: $0) }
        }
        let original = hash(bytes)
        #expect(hash(bytes) == original)
        var seen: Set<UInt64> = [original]
        for index in bytes.indices {
            var changed = bytes
            changed[index] ^= 1
            seen.insert(hash(changed))
        }
        seen.insert(hash(Array(bytes.dropLast())))
        seen.insert(hash(bytes + [0]))
        #expect(seen.count == bytes.count + 3)
    }
}
