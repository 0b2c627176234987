import Foundation

/// Which fruitsite made a build. What a build keeps for the next one (the saved site model)
/// and every page's input hash are tied to it, so a new fruitsite starts afresh.
public enum Generator {
    /// The release version, which `fruitsite --version` prints.
    public static let version = "0.1.0"

    /// The version plus the size and modification time of the running executable: a
    /// fruitsite rebuilt from changed sources counts as a new generator even before its
    /// version number moves, so no page made by older code survives a rebuild.
    static let identity: String = {
        guard let executable = Bundle.main.executablePath, let status = FileStatus.of(executable)
        else { return version }
        return "\(version) \(String(UInt64(bitPattern: status.size), radix: 16))"
            + "-\(String(UInt64(bitPattern: status.modified), radix: 16))"
    }()
}
