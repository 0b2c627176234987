import Foundation

/// The file operations the loaders need, as closures so tests can swap in a fake disk.
public struct FileSystem: Sendable {
    /// One entry of a folder listing.
    public struct Entry: Sendable {
        public enum Kind: Sendable { case file, directory, symbolicLink, other }
        public var name: String
        public var kind: Kind
    }

    public var read: @Sendable (_ path: String) throws -> [UInt8]
    public var list: @Sendable (_ directory: String) throws -> [Entry]
    /// The absolute path with every symbolic link resolved, or nil when it does not exist.
    public var resolve: @Sendable (_ path: String) -> String?
    public var isDirectory: @Sendable (_ path: String) -> Bool

    /// The real disk.
    public static let local = FileSystem(
        read: { path in
            guard let data = FileManager.default.contents(atPath: path) else {
                throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: path])
            }
            return [UInt8](data)
        },
        list: { directory in
            let manager = FileManager.default
            return try manager.contentsOfDirectory(atPath: directory).sorted().map { name in
                let attributes = try manager.attributesOfItem(atPath: directory + "/" + name)
                let kind: Entry.Kind =
                    switch attributes[.type] as? FileAttributeType {
                    case .typeRegular?: .file
                    case .typeDirectory?: .directory
                    case .typeSymbolicLink?: .symbolicLink
                    default: .other
                    }
                return Entry(name: name, kind: kind)
            }
        },
        resolve: { path in
            guard FileManager.default.fileExists(atPath: path) else { return nil }
            return URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
        },
        isDirectory: { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
                && isDirectory.boolValue
        }
    )
}
