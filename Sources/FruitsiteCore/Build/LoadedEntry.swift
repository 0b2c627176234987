/// One entry of a language's site as `SiteBuilder.loadEntries(config:)` loads it: its file,
/// its fruit and the key its translations share.
public struct LoadedEntry: Sendable {
    /// The path as listed, such as `Content/citrus/lemon.md`.
    public var path: String
    public var fruit: Fruit
    /// The slug of the default language's entry that this one is or translates: its own
    /// slug, or the one its `translationKey:` names.
    public var translationKey: String

    /// Creates an entry.
    /// - Parameters:
    ///   - path: The entry's file, as listed.
    ///   - fruit: Its fruit.
    ///   - translationKey: The slug of the default language's entry it is or translates.
    public init(path: String, fruit: Fruit, translationKey: String) {
        (self.path, self.fruit, self.translationKey) = (path, fruit, translationKey)
    }
}
