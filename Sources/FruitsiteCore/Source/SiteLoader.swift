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
    public func load() -> Result {
        let listing = list()
        let reads = listing.paths.concurrentMap { path in
            Swift.Result { () throws(BuildFailure) in try read(path) }
        }
        var files: [SourceFile] = []
        var diagnostics = listing.diagnostics
        for read in reads {
            switch read {
            case .success(let file): files.append(file)
            case .failure(let failure): diagnostics += failure.diagnostics
            }
        }
        return Result(files: files, diagnostics: diagnostics)
    }

    /// The `.md` files found and the problems met on the way.
    public struct Listing: Sendable {
        public var paths: [String]
        /// Every folder listed, with its status just before: while no folder's status
        /// changes, neither does `paths`.
        public var folders: [(path: String, status: FileStatus?)] = []
        public var diagnostics: [Diagnostic]
    }

    /// Finds every `.md` file, sorted by path; hidden files and folders are skipped.
    ///
    /// A symbolic link is followed only when it resolves to a place inside the content folder,
    /// so a link can never pull in files from elsewhere on the machine.
    public func list() -> Listing {
        let folder = SourceLocation(path: contentDirectory)
        guard fileSystem.isDirectory(contentDirectory),
            let root = fileSystem.resolve(contentDirectory)
        else {
            return Listing(
                paths: [],
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
        var folders: [(path: String, status: FileStatus?)] = []
        while let directory = pending.popLast() {
            folders.append((directory, fileSystem.status(directory)))
            let entries: [FileSystem.Entry]
            do {
                entries = try fileSystem.list(directory)
            } catch {
                diagnostics.append(
                    .error(at: SourceLocation(path: directory), "cannot list the folder: \(error)"))
                continue
            }
            for entry in entries where entry.name.utf8.first != UInt8(ascii: ".") {
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
                case .file where entry.name.utf8.reversed().starts(with: "dm.".utf8):
                    paths.append(path)
                default: break
                }
            }
        }
        UTF8Order.sort(&paths)

        return Listing(paths: paths, folders: folders, diagnostics: diagnostics)
    }

    /// Reads one file.
    /// - Throws: `BuildFailure` saying why the file could not be read.
    public func read(_ path: String) throws(BuildFailure) -> SourceFile {
        do {
            return SourceFile(path: path, bytes: try fileSystem.read(path))
        } catch {
            throw BuildFailure([
                .error(at: SourceLocation(path: path), "cannot read the file: \(error)")
            ])
        }
    }
}
