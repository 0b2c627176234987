extension SiteModel {
    /// One content file that parsed without errors, drafts included.
    struct Entry: Sendable {
        /// The path as listed, such as `Content/citrus/lemon.md`.
        let path: String
        /// Where the fruit's slug lies in `path` (`SourceFile.slug(of:)`), found once: with a
        /// language's code in the name that cost some 1,300 instructions, and a build of
        /// several languages asks for it about ten times an entry.
        private let slugIndices: Range<String.Index>
        /// The hash of `path`, which the sitemap's inputs and the output folder's id take
        /// for every fruit: hashing each path's string there again was 5.0M of a build's
        /// 72.8M instructions at 10,000 fruits when nothing changed.
        let pathHash: UInt64
        /// Nil when the file system cannot tell, which makes every build read the file.
        var status: FileStatus?
        /// When the file was seen with `status`, in nanoseconds since 1970.
        var verifiedAt: Int64
        /// The hash of the file's bytes: stands for everything in it, details included.
        var sourceHash: UInt64
        /// The picture file the fruit names (`fruit.image`), as the scan read it with the
        /// entry: kept beside the fruit, so that a scan compares its status without decoding
        /// any fruit.
        let picture: PictureFile?
        /// `fruit.summaryHash`, kept so that no build hashes unchanged summaries again.
        var summaryHash: UInt64
        /// The hash of `fruit.nameKey`, which the sharded index's grams are made of: a
        /// rebuild learns whether they changed without reading every name.
        var nameHash: UInt64
        /// `fruit.date`, kept so that the sitemap and the feeds, which look at every fruit's
        /// date, decode no fruit.
        var date: EntryDate?
        /// The slug of the default language's entry that this translation names in
        /// `translationKey:`; nil when its file's name says which (`translationKey`).
        let namedKey: String?
        /// Whether every build reads the entry's facts again: to repeat the parser's warnings,
        /// or to check the body's `fruit:` and `category:` links against the catalog.
        var isRechecked: Bool
        /// The fruit's page as last written; nil while the fruit has no page.
        var page: OutputRecord?
        /// The fruit and what the parser said of it.
        var facts: EntryFacts
        /// The entry as the saved model holds it, while it has not changed since: saving
        /// copies these bytes instead of encoding the entry again.
        private(set) var saved: ByteSlice?

        /// Creates the entry of a file just parsed.
        init(
            path: String, status: FileStatus?, verifiedAt: Int64, sourceHash: UInt64,
            picture: PictureFile?, namedKey: String?, facts: EntryFacts.Value
        ) {
            self.init(
                path: path, status: status, verifiedAt: verifiedAt, sourceHash: sourceHash,
                picture: picture, summaryHash: facts.fruit.summaryHash,
                nameHash: StableHasher.hash(facts.fruit.nameKey), date: facts.fruit.date,
                namedKey: namedKey,
                isRechecked: !facts.warnings.isEmpty || !facts.siteLinks.isEmpty,
                page: nil, facts: EntryFacts(facts))
        }

        /// Creates an entry from its parts, as the saved model holds them.
        init(
            path: String, status: FileStatus?, verifiedAt: Int64, sourceHash: UInt64,
            picture: PictureFile?, summaryHash: UInt64, nameHash: UInt64, date: EntryDate?,
            namedKey: String?, isRechecked: Bool,
            page: OutputRecord?, facts: EntryFacts, saved: ByteSlice? = nil
        ) {
            self.path = path
            slugIndices = SourceFile.slugIndices(in: path)
            var hasher = StableHasher()
            hasher.combine(path)
            pathHash = hasher.value
            self.status = status
            self.verifiedAt = verifiedAt
            self.sourceHash = sourceHash
            self.picture = picture
            self.summaryHash = summaryHash
            self.nameHash = nameHash
            self.date = date
            self.namedKey = namedKey
            self.isRechecked = isRechecked
            self.page = page
            self.facts = facts
            self.saved = saved
        }

        /// Records that the file was seen again, with the same bytes, at `time`.
        mutating func verify(status: FileStatus?, at time: Int64) {
            self.status = status
            verifiedAt = time
            saved = nil
        }

        /// Sets the record of the fruit's page.
        mutating func setPage(_ record: OutputRecord?) {
            page = record
            saved = nil
        }

        var fruit: Fruit { facts.fruit }

        /// What a listing shows of the fruit (`EntryFacts.listed`).
        var listed: ListedFruit { facts.listed }

        /// The fruit's slug, from the file's name: no need to decode the facts.
        var slug: Substring { path[slugIndices] }

        /// The key the entry's translations share: the slug of the default language's entry
        /// (`SourceFile.translationKey(of:)`), or the one the translation names.
        var translationKey: Substring { namedKey?[...] ?? slug }

        var warnings: [Diagnostic] { isRechecked ? facts.value.warnings : [] }

        var siteLinks: [SiteLink] { isRechecked ? facts.value.siteLinks : [] }

        var categoryLocation: SourceLocation {
            let facts = facts.value
            return SourceLocation(
                path: path, line: facts.categoryLine, column: facts.categoryColumn)
        }
    }

    /// A picture file an entry names, as the scan last read it: a build reads the entry again
    /// when the file's status changes, as when the entry's own file's does (`RecordedFiles`).
    /// A class, so that an entry holds one word for it: most entries name no picture.
    final class PictureFile: Sendable {
        /// As `FruitImage.path`.
        let path: String
        /// Nil when the file system cannot tell, which makes every build read the entry.
        let status: FileStatus?

        init(path: String, status: FileStatus?) {
            self.path = path
            self.status = status
        }
    }
}
