import Foundation

/// The bundled sample site at the repository root: `fruitsite.yml`, which lists its languages,
/// its entries in `Content/`, each in English (`apple.md`) and in French (`apple.fr.md`), and
/// the default theme in `Templates/`.
public enum Sample {
    /// The sample's config. A test that names no config would read the working folder's
    /// `fruitsite.yml`, which is this one only when the tests run from the repository root.
    public static let configPath = repositoryRoot + "/fruitsite.yml"

    /// The sample's config after `settings`, a test's own lines: the sample's content builds
    /// only with its languages listed, and `settings` keep the line numbers they were written
    /// at.
    /// - Parameter settings: YAML lines that set keys the sample's config does not.
    /// - Throws: The error reading `fruitsite.yml`.
    public static func config(after settings: String) throws -> String {
        settings + (try String(contentsOfFile: configPath, encoding: .utf8))
    }

    /// Copies the sample into `folder` as a site in one language: the theme, and the English
    /// entries and their pictures without the French translations (a file named
    /// `<slug>.<code>.md`), and no config. The tests of what a site in one language does use
    /// it; those of several languages build sites of their own (`LanguageBuildTests`).
    /// - Parameter folder: An existing folder, which gets `Content/` and `Templates/`.
    /// - Throws: The file system's error copying or removing a file.
    public static func copyInOneLanguage(to folder: String) throws {
        let manager = FileManager.default
        for name in ["Content", "Templates"] {
            try manager.copyItem(atPath: repositoryRoot + "/" + name, toPath: folder + "/" + name)
        }
        for name in try manager.contentsOfDirectory(atPath: folder + "/Content")
        where isTranslation(name) {
            try manager.removeItem(atPath: folder + "/Content/" + name)
        }
    }

    /// Whether an entry's file name has a language's code before `.md`, as `apple.fr.md` has:
    /// no English entry of the sample has a dot in its slug.
    static func isTranslation(_ name: String) -> Bool {
        name.hasSuffix(".md") && name.dropLast(3).contains(".")
    }
}
