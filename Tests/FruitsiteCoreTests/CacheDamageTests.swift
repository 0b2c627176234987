import Foundation
import FruitsiteCore
import TestSupport
import Testing

/// The cache is verified, not trusted: whatever damage a byte of it takes, the next build
/// writes what a clean build writes (by starting clean), never a different site.
@Suite struct CacheDamageTests {
    enum Damage: String, CaseIterable {
        case flip, zero, truncate

        func apply(to bytes: [UInt8], at offset: Int) -> [UInt8] {
            var damaged = bytes
            switch self {
            case .flip: damaged[offset] ^= 0x01 << UInt8(offset % 8)
            case .zero: damaged[offset] = damaged[offset] == 0 ? 0xFF : 0
            case .truncate: damaged.removeLast(bytes.count - offset)
            }
            return damaged
        }
    }

    /// A text edit (one page rendered again), and an added fruit (the model's order,
    /// categories and neighbours all used).
    enum Edit: String, CaseIterable {
        case text, addFruit

        func apply(to project: IncrementalBuildTests.Project) throws {
            switch self {
            case .text: try project.edit("Content/apple.md") { $0 + "\nMore.\n" }
            case .addFruit:
                try project.folder.write(
                    "Content/bluebarry.md", "---\nname: Bluebarry\ncategory: Berries\n---\nNew.\n")
            }
        }
    }

    /// Offsets in every part of the file: the header, the model's fields, the entries'
    /// records, the order, categories and outputs, and the checksum at the end.
    static func offsets(in count: Int) -> [Int] {
        let step = max(1, count / 24)
        return Array(Set(Array(stride(from: 0, to: count, by: step)) + ((count - 9)..<count)))
            .sorted()
    }

    /// The model file whole, as a clean build leaves it, or the changes file beside it, as a
    /// build that changed one entry leaves it.
    enum CacheFile: String, CaseIterable {
        case model, changes
    }

    @Test(arguments: Edit.allCases, CacheFile.allCases)
    func anyDamageGivesWhatACleanBuildGives(after edit: Edit, to file: CacheFile) throws {
        let project = try IncrementalBuildTests.Project(settled: true)
        defer { project.folder.remove() }
        let manager = FileManager.default
        let root = project.folder.path
        _ = try project.build()
        if file == .changes {
            try project.edit("Content/apricot.md") { $0 + "\nEarlier.\n" }
            _ = try project.build()
        }
        let cacheFiles = try manager.contentsOfDirectory(atPath: root + "/.cache")
        #expect(cacheFiles.count == (file == .model ? 1 : 2))
        let cachePath =
            root + "/.cache/" + (cacheFiles.first { $0.hasSuffix("." + file.rawValue) } ?? "")
        let pristineCache = try FileSystemBytes.read(cachePath)
        try manager.copyItem(atPath: root + "/Output", toPath: root + "/Pristine")
        let apple = try FileSystemBytes.read(root + "/Content/apple.md")

        // What a clean build writes after the edit.
        try edit.apply(to: project)
        var clean = project.options
        clean.outputDirectory = root + "/Clean"
        clean.cacheDirectory = nil
        _ = try SiteBuilder(options: clean).build()
        let expected = try Self.contents(of: root + "/Clean")

        var trials = 0
        for damage in Damage.allCases {
            for offset in Self.offsets(in: pristineCache.count) {
                // The site, content and cache as the first build left them, the damage, the
                // edit.
                try manager.removeItem(atPath: root + "/Output")
                try Self.link(root + "/Pristine", to: root + "/Output")
                try Data(apple).write(to: URL(fileURLWithPath: root + "/Content/apple.md"))
                try? manager.removeItem(atPath: root + "/Content/bluebarry.md")
                try Data(damage.apply(to: pristineCache, at: offset)).write(
                    to: URL(fileURLWithPath: cachePath))
                try edit.apply(to: project)
                _ = try project.build()
                let actual = try Self.contents(of: root + "/Output")
                let what =
                    "\(damage) at byte \(offset) of \(pristineCache.count) of the \(file) file, "
                    + "then \(edit)"
                #expect(actual == expected, "\(what): \(Self.difference(actual, expected))")
                trials += 1
            }
        }
        #expect(trials >= 3 * 24)
    }

    /// A copy of `source` made of hard links: builds never write into a file in place, they
    /// rename new files over old ones, so the source stays as it was.
    static func link(_ source: String, to destination: String) throws {
        let manager = FileManager.default
        try manager.createDirectory(atPath: destination, withIntermediateDirectories: false)
        for path in try manager.subpathsOfDirectory(atPath: source).sorted() {
            var isDirectory: ObjCBool = false
            _ = manager.fileExists(atPath: source + "/" + path, isDirectory: &isDirectory)
            if isDirectory.boolValue {
                try manager.createDirectory(
                    atPath: destination + "/" + path, withIntermediateDirectories: false)
            } else {
                try manager.linkItem(atPath: source + "/" + path, toPath: destination + "/" + path)
            }
        }
    }

    /// Every file below `folder` with its bytes.
    static func contents(of folder: String) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for path in filesBelow(folder) {
            result[path] = FileManager.default.contents(atPath: folder + "/" + path)
        }
        return result
    }

    static func difference(_ actual: [String: Data], _ expected: [String: Data]) -> String {
        let keys = Set(actual.keys).union(expected.keys).sorted()
        return keys.filter { actual[$0] != expected[$0] }.prefix(5).joined(separator: ", ")
    }
}

/// Reads a whole file into bytes.
enum FileSystemBytes {
    static func read(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }
}
