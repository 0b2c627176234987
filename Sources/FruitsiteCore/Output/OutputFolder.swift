import Foundation

/// The output folder, by its absolute path, and the hidden folders a build keeps beside it
/// (`.Output.fruitsite-…`) or, when it is a mount point, inside it (`.fruitsite-…`).
struct OutputFolder: Sendable {
    /// The folder's absolute path, with its parent folder and its name.
    let path: String
    let parent: String
    let name: String

    init(_ path: String) {
        self.path = path
        parent = (path as NSString).deletingLastPathComponent
        name = (path as NSString).lastPathComponent
    }

    /// The start of the name of each hidden folder beside it.
    var hiddenPrefix: String { ".\(name).fruitsite-" }

    /// Where this process stages a write: beside the folder, or inside it when it is a mount
    /// point, so that renames stay on its file system.
    func staging(isInside: Bool) -> String {
        isInside ? "\(path)/.fruitsite-tmp-\(getpid())" : "\(parent)/\(hiddenPrefix)tmp-\(getpid())"
    }

    /// The spare copy of the site (see `SpareCopy`).
    var spare: String { "\(parent)/\(spareName)" }

    /// The spare copy's name.
    var spareName: String { hiddenPrefix + "spare" }

    /// Where the old site waits while two renames put the new one in its place.
    var parked: String { "\(parent)/\(hiddenPrefix)old-\(getpid())" }
}
