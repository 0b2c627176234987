/// Finds and reads every `.md` file below the content folder.
public struct SiteLoader: Sendable {
    /// The content folder as the user named it; diagnostics show paths under it.
    public var contentDirectory: String
    public var fileSystem: FileSystem

    /// Creates a loader.
    /// - Parameters:
    ///   - contentDirectory: The content folder, such as `Content`.
    ///   - fileSystem: Where to read from.
    public init(contentDirectory: String, fileSystem: FileSystem = .local) {
        self.contentDirectory = contentDirectory
        self.fileSystem = fileSystem
    }

    /// The files read and the problems met (unreadable files, links that leave the folder).
    public struct Result: Sendable {
        public var files: [SourceFile]
        public var diagnostics: [Diagnostic]
    }

    /// Reads every `.md` file, sorted by path; hidden files and folders are skipped.
    ///
    /// A symbolic link is followed only when it resolves to a place inside the content folder,
    /// so a link can never pull in files from elsewhere on the machine.
    public func load() -> Result {
        let folder = SourceLocation(path: contentDirectory)
        guard fileSystem.isDirectory(contentDirectory),
            let root = fileSystem.resolve(contentDirectory)
        else {
            return Result(
                files: [],
                diagnostics: [
                    .error(
                        at: folder, "the content folder does not exist",
                        hint: "create it, or pass --content DIR")
                ])
        }
        var diagnostics: [Diagnostic] = []
        var paths: [String] = []
        var pending = [contentDirectory]
        var visited: Set<String> = [root]
        while let directory = pending.popLast() {
            let entries: [FileSystem.Entry]
            do {
                entries = try fileSystem.list(directory)
            } catch {
                diagnostics.append(
                    .error(at: SourceLocation(path: directory), "cannot list the folder: \(error)"))
                continue
            }
            for entry in entries where !entry.name.hasPrefix(".") {
                let path = directory + "/" + entry.name
                var kind = entry.kind
                if kind == .symbolicLink {
                    guard let target = fileSystem.resolve(path),
                        target == root || target.hasPrefix(root + "/")
                    else {
                        diagnostics.append(
                            .warning(
                                at: SourceLocation(path: path),
                                "symbolic link not followed: it points outside the content folder"))
                        continue
                    }
                    kind = fileSystem.isDirectory(path) ? .directory : .file
                    if kind == .directory, !visited.insert(target).inserted { continue }
                }
                switch kind {
                case .directory: pending.append(path)
                case .file where entry.name.hasSuffix(".md"): paths.append(path)
                default: break
                }
            }
        }
        paths.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }

        // Each read gives a file or the problem that stopped it.
        let reads = paths.concurrentMap { path -> (SourceFile?, Diagnostic?) in
            do {
                return (SourceFile(path: path, bytes: try fileSystem.read(path)), nil)
            } catch {
                return (
                    nil, .error(at: SourceLocation(path: path), "cannot read the file: \(error)")
                )
            }
        }
        let files = reads.compactMap(\.0)
        diagnostics += reads.compactMap(\.1)
        return Result(files: files, diagnostics: diagnostics)
    }
}
