import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which folders may be the output folder: the checks made before anything is written.
extension OutputWriter {
    /// Checks that the output folder is safe to replace, without writing anything.
    /// - Throws: `BuildFailure` naming the folder and why it is refused.
    public func validate() throws(BuildFailure) {
        let output = Self.absolute(outputDirectory, fileSystem: fileSystem)
        func refuse(_ message: String, hint: String? = nil) -> BuildFailure {
            BuildFailure([.error(at: SourceLocation(path: outputDirectory), message, hint: hint)])
        }
        let home = Self.absolute(NSHomeDirectory(), fileSystem: fileSystem)
        if output == "/" || output == home {
            throw refuse(
                "refusing to use \(output == "/" ? "/" : "the home folder") as the output folder")
        }
        for directory in protectedDirectories.map({ Self.absolute($0, fileSystem: fileSystem) }) {
            if output == directory || directory.hasPrefix(output + "/") {
                throw refuse(
                    "refusing to write the site over '\(directory)'",
                    hint:
                        "the output folder must not be, or contain, the project, content or templates"
                )
            }
        }
        for directory in sourceDirectories.map({ Self.absolute($0, fileSystem: fileSystem) })
        where output.hasPrefix(directory + "/") {
            throw refuse("refusing to write the site inside '\(directory)'")
        }
        if let info = try? fileSystem.linkStatus(outputDirectory), info.st_mode & S_IFMT == S_IFLNK,
            (try? fileSystem.status(outputDirectory)) == nil
        {
            throw refuse(
                "the output folder is a link to a place that does not exist",
                hint: "create the folder it names, or remove the link")
        }
        guard let info = try? fileSystem.status(output) else { return }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw refuse("the output path exists and is not a folder")
        }
        let entries = ((try? fileSystem.list(output)) ?? []).map(\.name)
        if !entries.isEmpty && !entries.contains(OutputMarker.name) && !force {
            throw refuse(
                "refusing to replace a folder that fruitsite did not create",
                hint:
                    "it is not empty and has no \(OutputMarker.name) file; pass --force to replace it"
            )
        }
    }

    /// The absolute path with every symbolic link resolved, as the kernel follows them; the
    /// names after the last one that exists are appended as written, `.` left out and `..`
    /// taking off the name before it.
    ///
    /// `realpath` rather than `URL`, which took about 100,000 instructions for each of the
    /// fourteen paths a build checks.
    static func absolute(_ path: String, fileSystem: OutputFileSystem = .local) -> String {
        let names = path.split(separator: "/")
        for existing in stride(from: names.count, through: 0, by: -1) {
            let head = (path.hasPrefix("/") ? "/" : "") + names[..<existing].joined(separator: "/")
            guard var result = fileSystem.resolve(head.isEmpty ? "." : head) else { continue }
            for name in names[existing...] where name != "." {
                if name != ".." {
                    result += (result.hasSuffix("/") ? "" : "/") + name
                } else if let slash = result.lastIndex(of: "/") {
                    result = slash == result.startIndex ? "/" : String(result[..<slash])
                }
            }
            return result
        }
        // Not even the working folder resolves (it was removed).
        return path
    }
}
