import TestSupport
import Testing

@testable import FruitsiteCore

@Suite struct EntryCacheTests {
    static func sample() throws -> EntryCache {
        var options = BuildOptions()
        options.contentDirectory = repositoryRoot + "/Content"
        let fruits = try #require(
            SiteBuilder(options: options).loadCatalog(config: SiteConfig()).catalog
        )
        .fruits.sorted { UTF8Order.precedes($0.location.path, $1.location.path) }
        var cache = EntryCache()
        for (index, fruit) in fruits.enumerated() {
            cache.paths.append(fruit.location.path)
            cache.entries.append(
                .init(
                    status: FileStatus(
                        device: 1, inode: UInt64(index), size: 100, modified: 5, changed: 6),
                    verifiedAt: 10_000_000_000, fruit: fruit.summary))
        }
        return cache
    }

    static func encoded(_ cache: EntryCache) -> [UInt8] {
        var writer = ByteWriter()
        cache.encoded(into: &writer)
        return writer.bytes
    }

    @Test func readsWhatItWrote() throws {
        let cache = try Self.sample()
        let bytes = Self.encoded(cache)
        let read = try #require(EntryCache(decoding: bytes, from: 0))
        #expect(read.paths == cache.paths)
        for (a, b) in zip(read.entries, cache.entries) {
            #expect(a.status == b.status && a.verifiedAt == b.verifiedAt)
            #expect(a.fruit.slug == b.fruit.slug && a.fruit.name == b.fruit.name)
            #expect(a.fruit.emoji == b.fruit.emoji && a.fruit.category == b.fruit.category)
            #expect(a.fruit.vitamins == b.fruit.vitamins && a.fruit.isDraft == b.fruit.isDraft)
            #expect(a.fruit.location == b.fruit.location)
            #expect(a.fruit.categoryLocation == b.fruit.categoryLocation)
            #expect(a.fruit.nameKey == b.fruit.nameKey && a.fruit.sourceHash == b.fruit.sourceHash)
            #expect(a.fruit.details == nil)
        }
        // Entries read and not changed are copied as they were.
        #expect(Self.encoded(read) == bytes)
    }

    @Test func rejectsDamagedBytes() throws {
        let bytes = Self.encoded(try Self.sample())
        for length in stride(from: 0, to: bytes.count, by: 97) {
            #expect(
                EntryCache(decoding: Array(bytes[..<length]), from: 0) == nil, "cut at \(length)")
        }
        var garbled = bytes
        garbled[8] ^= 0xFF
        #expect(EntryCache(decoding: garbled, from: 0) == nil)
        #expect(EntryCache(decoding: bytes + [0], from: 0) == nil)
    }

    @Test func trustsAStatusOnlyWellAfterTheFileChanged() throws {
        let entry = try Self.sample().entries[0]
        let seconds: Int64 = 1_000_000_000
        var status = entry.status
        #expect(EntryCache.isCurrent(entry, status: status))
        status.size += 1
        #expect(!EntryCache.isCurrent(entry, status: status))
        #expect(!EntryCache.isCurrent(entry, status: nil))

        // The file changed one second before it was seen: a later change within the same
        // tick of a coarse clock would not show, so its bytes are checked.
        var recent = entry
        recent.verifiedAt = entry.status.changed + seconds
        #expect(!EntryCache.isCurrent(recent, status: recent.status))
        recent.verifiedAt = entry.status.changed + 3 * seconds
        #expect(EntryCache.isCurrent(recent, status: recent.status))
    }
}
