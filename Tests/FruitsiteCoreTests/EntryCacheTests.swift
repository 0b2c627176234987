import TestSupport
import Testing

@testable import FruitsiteCore

@Suite struct EntryCacheTests {
    static let header = "test-header\n"

    /// The sample content's entries, cached with made-up statuses, and its catalog.
    static func sample() throws -> (entries: [EntryCache.Entry], catalog: Catalog) {
        var options = BuildOptions()
        options.contentDirectory = repositoryRoot + "/Content"
        options.includeDrafts = true
        let catalog = try #require(
            SiteBuilder(options: options).loadCatalog(config: SiteConfig()).catalog)
        let fruits = catalog.fruits.sorted {
            UTF8Order.precedes($0.location.path, $1.location.path)
        }
        let entries = fruits.enumerated().map { index, fruit in
            EntryCache.Entry(
                status: FileStatus(
                    device: 1, inode: UInt64(index), size: 100, modified: 5, changed: 6),
                verifiedAt: 10_000_000_000, fruit: fruit.summary)
        }
        return (entries, catalog)
    }

    static func encoded(
        _ records: [EntryCache.Record], catalog: Catalog, manifestID: UInt64 = 42,
        folder: FileStatus = FileStatus(device: 1, inode: 2, size: 3, modified: 4, changed: 5),
        listedAt: Int64 = 7
    ) -> [UInt8] {
        let order = catalog.fruits.map { fruit in
            catalog.fruits.sorted { UTF8Order.precedes($0.location.path, $1.location.path) }
                .firstIndex { $0.location.path == fruit.location.path }!
        }
        return EntryCache.encode(
            header: header, manifestID: manifestID, records: records,
            folders: [.init(path: "Content", status: folder)], listedAt: listedAt,
            catalog: .init(
                includesDrafts: true, siteInputs: 8, categoryInputs: 9, order: order,
                categories: catalog.categories))
    }

    @Test func readsWhatItWrote() throws {
        let (entries, catalog) = try Self.sample()
        let bytes = Self.encoded(entries.map { .entry($0) }, catalog: catalog)
        let cache = try #require(EntryCache(bytes: bytes, from: Self.header.utf8.count))
        #expect(cache.manifestID == 42 && cache.count == entries.count && cache.listedAt == 7)
        #expect(cache.folders?.map(\.path) == ["Content"])
        #expect(cache.catalog?.categories.map(\.name) == catalog.categories.map(\.name))
        #expect(
            cache.catalog?.categories.map(\.fruitIndexes) == catalog.categories.map(\.fruitIndexes))
        let decoded = try #require(cache.decodeAll())
        #expect(decoded.paths == entries.map(\.fruit.location.path))
        for (index, (a, b)) in zip(decoded.entries, entries).enumerated() {
            #expect(a.status == b.status && a.verifiedAt == b.verifiedAt)
            #expect(a.fruit.slug == b.fruit.slug && a.fruit.name == b.fruit.name)
            #expect(a.fruit.emoji == b.fruit.emoji && a.fruit.category == b.fruit.category)
            #expect(a.fruit.vitamins == b.fruit.vitamins && a.fruit.isDraft == b.fruit.isDraft)
            #expect(a.fruit.location == b.fruit.location)
            #expect(a.fruit.categoryLocation == b.fruit.categoryLocation)
            #expect(a.fruit.nameKey == b.fruit.nameKey && a.fruit.sourceHash == b.fruit.sourceHash)
            #expect(a.fruit.details == nil)
            #expect(
                cache.status(index) == b.status && cache.sourceHash(index) == b.fruit.sourceHash)
            #expect(cache.summaryInputs(index) == ContextBuilder.summaryInputs(b.fruit))
            #expect(cache.isDraft(index) == b.fruit.isDraft)
        }
        // Entries copied as they were make the same bytes.
        let copied = Self.encoded(
            entries.indices.map { .copied(cache.record($0)) }, catalog: catalog)
        #expect(copied == bytes)
    }

    @Test func patchesAnEntryInPlace() throws {
        let (entries, catalog) = try Self.sample()
        let bytes = Self.encoded(entries.map { .entry($0) }, catalog: catalog)
        let cache = try #require(EntryCache(bytes: bytes, from: Self.header.utf8.count))
        var changed = entries[3]
        changed.status.size = 999
        changed.verifiedAt = 123
        changed.fruit.sourceHash = 77
        let folder = FileStatus(device: 9, inode: 9, size: 9, modified: 9, changed: 9)
        var patched = bytes
        for (offset, write) in cache.patches(
            entries: [3: changed], folders: [folder], listedAt: 11, manifestID: 43)
        {
            patched.replaceSubrange(offset..<offset + write.count, with: write)
        }
        let read = try #require(EntryCache(bytes: patched, from: Self.header.utf8.count))
        #expect(read.manifestID == 43 && read.listedAt == 11)
        #expect(read.status(3).size == 999 && read.verifiedAt(3) == 123 && read.sourceHash(3) == 77)
        #expect(read.folders?.first?.status == folder)
        #expect(read.entry(4)?.fruit.name == entries[4].fruit.name)
        // The same bytes as writing the changed entries afresh.
        var expected = entries
        expected[3] = changed
        #expect(
            patched
                == Self.encoded(
                    expected.map { .entry($0) }, catalog: catalog, manifestID: 43, folder: folder,
                    listedAt: 11))
    }

    @Test func rejectsDamagedBytes() throws {
        let (entries, catalog) = try Self.sample()
        let bytes = Self.encoded(entries.map { .entry($0) }, catalog: catalog)
        let start = Self.header.utf8.count
        for length in stride(from: start, to: bytes.count, by: 97) {
            let cache = EntryCache(bytes: Array(bytes[..<length]), from: start)
            #expect(cache == nil || cache?.decodeAll() == nil, "cut at \(length)")
        }
        #expect(EntryCache(bytes: bytes + [0], from: start) == nil)
        var garbled = bytes
        garbled[start + 8 * 3 + 8] ^= 0xFF  // the second entry's offset
        let cache = EntryCache(bytes: garbled, from: start)
        #expect(cache == nil || cache?.decodeAll() == nil)
    }

    @Test func trustsAStatusOnlyWellAfterTheFileChanged() throws {
        let status = FileStatus(device: 1, inode: 2, size: 3, modified: 4, changed: 5)
        let second: Int64 = 1_000_000_000
        #expect(EntryCache.isCurrent(recorded: status, verifiedAt: 3 * second, status: status))
        var other = status
        other.size += 1
        #expect(!EntryCache.isCurrent(recorded: status, verifiedAt: 3 * second, status: other))
        #expect(!EntryCache.isCurrent(recorded: status, verifiedAt: 3 * second, status: nil))
        // Changed one second before it was seen: a later change within the same tick of a
        // coarse clock would not show, so the bytes are checked.
        #expect(!EntryCache.isCurrent(recorded: status, verifiedAt: second, status: status))
    }
}

@Suite struct StoredManifestTests {
    static let manifest = BuildManifest(
        entries: Dictionary(
            uniqueKeysWithValues: (0..<300).map {
                (
                    "fruits/f\($0)/index.html",
                    BuildManifest.Entry(inputHash: UInt64($0), outputHash: 7)
                )
            } + [("assets/site.css", BuildManifest.Entry(inputHash: nil, outputHash: 9))]))

    static func stored() throws -> (StoredManifest, [UInt8]) {
        var writer = ByteWriter()
        manifest.encoded(into: &writer)
        return (try #require(StoredManifest(bytes: writer.bytes, from: 0)), writer.bytes)
    }

    @Test func findsEveryEntryAndDecodesThemAll() throws {
        let (stored, _) = try Self.stored()
        #expect(stored.id == Self.manifest.id && stored.count == Self.manifest.entries.count)
        for (path, entry) in Self.manifest.entries {
            #expect(stored.lookup(path)?.entry == entry, "\(path)")
        }
        #expect(stored.lookup("fruits/none/index.html") == nil)
        #expect(stored.decoded() == Self.manifest)
    }

    @Test func patchesGiveTheManifestOfTheChangedEntries() throws {
        let (stored, bytes) = try Self.stored()
        let changes = [
            "fruits/f12/index.html": BuildManifest.Entry(inputHash: 1, outputHash: 2),
            "assets/site.css": BuildManifest.Entry(inputHash: nil, outputHash: 3),
        ]
        let (writes, id) = try #require(stored.patches(changes))
        var patched = bytes
        for (offset, write) in writes {
            patched.replaceSubrange(offset..<offset + write.count, with: write)
        }
        var expected = Self.manifest
        expected.entries.merge(changes) { $1 }
        #expect(id == expected.id)
        let read = try #require(StoredManifest(bytes: patched, from: 0))
        #expect(read.id == expected.id && read.decoded() == expected)
        #expect(stored.patches(["fruits/new/index.html": changes.first!.value]) == nil)
    }
}
