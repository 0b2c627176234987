import Foundation

/// What to build from where: the command line's options.
public struct BuildOptions: Sendable {
    /// The folders' files are named in messages, and the content's in the saved model, by
    /// these paths joined with their own: so that the spellings of one folder name the same
    /// files, `./Content/` is kept as `Content`.
    @FolderPath public var contentDirectory = "Content"
    @FolderPath public var templatesDirectory = "Templates"
    @FolderPath public var outputDirectory = "Output"
    /// The config file; when nil, `fruitsite.yml` is read if it exists.
    public var configPath: String?
    public var includeDrafts = false
    public var force = false
    /// Ignore the saved model: parse every file, render every page and write a whole new
    /// output folder.
    public var clean = false
    /// Where a build keeps the site model for the next one (the CLI uses
    /// `.fruitsite-cache`). Nil keeps nothing, and every build is a clean one.
    public var cacheDirectory: String?
    /// Where pictures' variants are kept between builds: by default
    /// `$FRUITSITE_PICTURE_CACHE`, else `pictures/` in `cacheDirectory`. Variants are named by
    /// what makes them, so one folder may serve every site and build on a machine, and a CI
    /// job that restores it encodes nothing it encoded before.
    public var pictureCacheDirectory: String? =
        ProcessInfo.processInfo.environment["FRUITSITE_PICTURE_CACHE"].flatMap {
            $0.isEmpty ? nil : $0
        }
    /// When another build is writing the same output folder, wait for it to finish instead
    /// of refusing (see `OutputLock`).
    public var waitsForLock = false

    public init() {}
}

/// A folder's path as given but for its `.` parts and its repeated or trailing slashes;
/// `..` parts are kept, since a symbolic link may stand before one.
@propertyWrapper public struct FolderPath: Sendable {
    private var path: String

    public init(wrappedValue: String) {
        path = Self.tidied(wrappedValue)
    }

    public var wrappedValue: String {
        get { path }
        set { path = Self.tidied(newValue) }
    }

    private static func tidied(_ path: String) -> String {
        let parts = path.split(separator: "/").filter { $0 != "." }.joined(separator: "/")
        if path.hasPrefix("/") { return "/" + parts }
        return parts.isEmpty ? "." : parts
    }
}
