import Foundation

/// A fresh folder under the system's temporary folder, or `parent`, removed by `remove()`.
public struct TemporaryDirectory: Sendable {
    public let path: String

    public init(in parent: String = NSTemporaryDirectory()) throws {
        path = parent + "fruitsite-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// Writes `text` to `relativePath`, creating folders on the way.
    public func write(_ relativePath: String, _ text: String) throws {
        let full = path + "/" + relativePath
        try FileManager.default.createDirectory(
            atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: full))
    }

    public func read(_ relativePath: String) throws -> String {
        try String(contentsOfFile: path + "/" + relativePath, encoding: .utf8)
    }

    public func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// Every regular file below `root`, relative paths, sorted.
public func filesBelow(_ root: String) -> [String] {
    guard let enumerator = FileManager.default.enumerator(atPath: root) else { return [] }
    var files: [String] = []
    while let path = enumerator.nextObject() as? String {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory),
            !isDirectory.boolValue
        {
            files.append(path)
        }
    }
    return files.sorted()
}
