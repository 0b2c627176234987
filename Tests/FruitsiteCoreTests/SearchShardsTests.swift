import Foundation
import TestSupport
import Testing

@testable import FruitsiteCore

/// The sharded index must say exactly what the catalog says: every gram of one to three code
/// points lists the fruits whose folded name has it (three-point grams, where), each posting in
/// the file its gram names, and the records, categories and facets as the catalog has them.
/// `Tests/JS/search-index.test.mjs` checks that the browser's reading of it finds what
/// `fruitsite search` finds.
@Suite struct SearchShardsTests {
    /// Names with a single-letter gram in most of them, letters outside ASCII, an emoji, an
    /// NFD name and one that folds to more code points than it has (İ).
    static let names = [
        "Apple", "Apricot", "Banana", "Blood Orange", "Çaqui", "Cherry", "Date", "Durian",
        "Fig", "Grape", "İnce Armut", "Kiwi", "Lemon", "Mango", "Ωmega Berry", "Papaya",
        "Peach", "Pear", "Pineapple", "Plum", "Straße Apple", "Tamarind", "e\u{301}clair",
        "🍎 Crab Apple", "Zebra Banana", "Aaaaa", "ÆBLE",
    ]

    /// The catalog of `names`, in order, with a record, a category and a facet value each.
    static let records = names.indices.map { ByteSlice(copying: #"{"n":\#($0)}"#.utf8) }

    static let categories = [
        FruitGroup(
            name: "Even", key: Collation.root.key("Even"),
            positions: stride(from: 0, to: names.count, by: 2).map(CatalogPosition.init)),
        FruitGroup(
            name: "Odd", key: Collation.root.key("Odd"),
            positions: stride(from: 1, to: names.count, by: 2).map(CatalogPosition.init)),
    ]
    static let facets = [
        (
            key: "vitamins",
            values: [
                FruitGroup(
                    name: "C", key: Collation.root.key("C"),
                    positions: [0, 1, 2, 3, 10, 11, 12, 20].map(CatalogPosition.init)),
                FruitGroup(name: "K", key: Collation.root.key("K"), positions: []),
            ]
        )
    ]

    /// Small files, so that the few test names fill several buckets and some heavy files.
    static let builder = SearchShards(recordsPerFile: 4, heavyBytes: 24, bucketBytes: 256)

    /// Every file of an index, each named as the model names it: its path stamped with its
    /// hash, a records file's with its group's; the manifest first.
    static func allFiles(
        _ builder: SearchShards, names: [[UInt8]], records: [ByteSlice],
        categories: [FruitGroup], facets: [(key: String, values: [FruitGroup])]
    ) -> [RenderedPage] {
        let ends = names.reduce(into: [Int]()) { $0.append(($0.last ?? 0) + $1.count) }
        let (grams, gramFiles) = builder.grams(
            of: builder.postings(of: Array(names.joined()), endingAt: ends),
            source: builder.source(of: names.map(StableHasher.hash)))
        var files: [RenderedPage] = []
        func stamped(_ list: [RenderedPage]) -> [UInt64] {
            list.map { file in
                let hash = StableHasher.hash(file.bytes)
                files.append(
                    RenderedPage(path: ContentName.path(file.path, hash: hash), bytes: file.bytes))
                return hash
            }
        }
        var hashes = SearchShards.FileHashes()
        let gramHashes = stamped(gramFiles)
        hashes.buckets = Array(gramHashes.prefix(grams.buckets))
        hashes.heavy = Array(gramHashes.dropFirst(grams.buckets))
        let groups = builder.groupFiles(categories: categories, facets: facets)
        func grouped(_ list: [[UInt8]], facet: Int?) -> [UInt64] {
            list.map { bytes in
                let hash = StableHasher.hash(bytes)
                let path = SearchShards.groupPath(facet: facet, hash: hash)
                if !files.contains(where: { $0.path == path }) {
                    files.append(RenderedPage(path: path, bytes: bytes))
                }
                return hash
            }
        }
        hashes.categories = grouped(groups.categories, facet: nil)
        hashes.facets = groups.facets.enumerated().map { grouped($1, facet: $0) }
        let recordsFiles = builder.recordsFiles(count: records.count)
        hashes.recordsGroup = builder.recordsGroup(fileCount: recordsFiles.count)
        for group in stride(from: 0, to: recordsFiles.count, by: hashes.recordsGroup) {
            let members = recordsFiles[group..<min(group + hashes.recordsGroup, recordsFiles.count)]
                .map {
                    RenderedPage(
                        path: builder.recordsPath(of: $0),
                        bytes: builder.recordsFile(
                            records[$0.lowerBound.rawValue..<$0.upperBound.rawValue]))
                }
            var hasher = StableHasher()
            for file in members { hasher.combine(StableHasher.hash(file.bytes)) }
            hashes.records.append(hasher.value)
            files += members.map {
                RenderedPage(path: ContentName.path($0.path, hash: hasher.value), bytes: $0.bytes)
            }
        }
        let manifest = builder.manifest(
            count: records.count, grams: grams, categories: categories, facets: facets,
            hashes: hashes)
        return [RenderedPage(path: SearchShards.manifestPath, bytes: manifest)] + files
    }

    /// The file the manifest names `path` (such as `grams/3`), with the stamp at `index` of
    /// its `stamps`, as the browser reads it.
    static func file(
        _ files: [String: Any], _ path: String, _ stamps: Any?, _ index: Int
    ) -> Any? {
        guard let stamps = stamps as? String, stamps.count >= 8 * (index + 1) else {
            Issue.record("no stamp \(index) for \(path) in \(String(describing: stamps))")
            return nil
        }
        let stamp = stamps.dropFirst(8 * index).prefix(8)
        // A category's or a facet value's file is named by its stamp alone.
        let name = path.hasSuffix("/") ? "\(path)fruits.\(stamp).json" : "\(path).\(stamp).json"
        let found = files[SearchShards.folder + name]
        #expect(found != nil, "no file \(name)")
        return found
    }

    static func files() -> [String: Any] {
        let files = allFiles(
            builder, names: names.map(Fold.key), records: records, categories: categories,
            facets: facets)
        var parsed: [String: Any] = [:]
        for file in files {
            #expect(file.path.hasPrefix(SearchShards.folder) && file.bytes.last == 0x0A)
            #expect(parsed[file.path] == nil, "\(file.path) written twice")
            parsed[file.path] = try? JSONSerialization.jsonObject(
                with: Data(file.bytes), options: [.fragmentsAllowed])
            #expect(parsed[file.path] != nil, "\(file.path) is not JSON")
        }
        return parsed
    }

    /// The positions of a run list.
    static func positions(_ runs: Any?) -> [Int] {
        guard let numbers = runs as? [Int] else {
            Issue.record("not a run list: \(String(describing: runs))")
            return []
        }
        var positions: [Int] = []
        var end = 0
        for pair in stride(from: 0, to: numbers.count - 1, by: 2) {
            #expect(numbers[pair + 1] > 0 && (pair == 0 || numbers[pair] > 0), "\(numbers)")
            let start = end + numbers[pair]
            positions += start..<start + numbers[pair + 1]
            end = start + numbers[pair + 1]
        }
        #expect(numbers.count % 2 == 0)
        return positions
    }

    @Test func runListsHoldGapsAndLengths() {
        #expect(String(decoding: SearchShards.runList([2, 3, 4, 9]), as: UTF8.self) == "[2,3,4,1]")
        #expect(String(decoding: SearchShards.runList([0, 0, 1]), as: UTF8.self) == "[0,2]")
        #expect(String(decoding: SearchShards.runList([]), as: UTF8.self) == "[]")
    }

    @Test func everyGramListsExactlyTheFruitsWhoseNameHasIt() throws {
        let files = Self.files()
        let manifest = try #require(files[SearchShards.manifestPath] as? [String: Any])
        #expect(manifest["version"] as? Int == 5 && manifest["count"] as? Int == Self.names.count)
        let buckets = try #require(manifest["buckets"] as? String).count / 8
        let heavy = try #require(manifest["heavy"] as? [String: Int])
        #expect(buckets > 1 && !heavy.isEmpty, "the test's sizes make both kinds of file")

        // Every posting, from the file its gram names.
        var postings: [String: Any] = [:]
        for bucket in 0..<buckets {
            let file = try #require(
                Self.file(files, "grams/\(bucket)", manifest["buckets"], bucket) as? [String: Any])
            for (gram, posting) in file {
                #expect(Int(SearchShards.bucket(of: Array(gram.utf8)) % UInt32(buckets)) == bucket)
                #expect(heavy[gram] == nil && postings[gram] == nil)
                postings[gram] = posting
            }
        }
        for (gram, id) in heavy {
            postings[gram] = Self.file(files, "grams/h\(id)", manifest["heavyFiles"], id)
        }

        // What each gram should list, from the names themselves.
        var expected: [String: [Int: Set<Int>]] = [:]
        for (position, name) in Self.names.enumerated() {
            let scalars = Array(String(decoding: Fold.key(name), as: UTF8.self).unicodeScalars)
            for start in scalars.indices {
                for length in 1...3 where start + length <= scalars.count {
                    var gram = ""
                    gram.unicodeScalars.append(contentsOf: scalars[start..<start + length])
                    expected[gram, default: [:]][length == 3 ? start : -1, default: []]
                        .insert(position)
                }
            }
        }
        #expect(Set(postings.keys) == Set(expected.keys))
        for (gram, places) in expected {
            if gram.unicodeScalars.count < 3 {
                #expect(Self.positions(postings[gram]) == places[-1]!.sorted(), "\(gram)")
            } else {
                let offsets = try #require(postings[gram] as? [String: Any], "\(gram)")
                #expect(Set(offsets.keys) == Set(places.keys.map(String.init)), "\(gram)")
                for (offset, members) in places {
                    #expect(Self.positions(offsets[String(offset)]) == members.sorted(), "\(gram)")
                }
            }
        }
    }

    @Test func recordsCategoriesAndFacetsAreTheCatalogs() throws {
        let files = Self.files()
        let manifest = try #require(files[SearchShards.manifestPath] as? [String: Any])
        #expect(manifest["records"] as? Int == 4)
        let group = try #require(manifest["recordsGroup"] as? Int)
        var records: [Int] = []
        for file in 0..<(Self.names.count + 3) / 4 {
            let list = try #require(
                Self.file(files, "records/\(file)", manifest["recordsFiles"], file / group)
                    as? [[String: Int]])
            #expect(list.count == min(4, Self.names.count - file * 4))
            records += list.compactMap { $0["n"] }
        }
        #expect(records == Array(Self.names.indices))

        let categories = try #require(manifest["categories"] as? [[String: Any]])
        #expect(categories.map { $0["name"] as? String } == ["Even", "Odd"])
        for (index, category) in Self.categories.enumerated() {
            #expect(categories[index]["count"] as? Int == category.positions.count)
            #expect(
                Self.positions(
                    Self.file(files, "categories/", manifest["categoryFiles"], index))
                    == category.positions.map(\.rawValue))
        }
        let facets = try #require(manifest["facets"] as? [[String: Any]])
        #expect(facets.map { $0["key"] as? String } == ["vitamins"])
        let values = try #require(facets[0]["values"] as? [[String: Any]])
        #expect(values.map { $0["name"] as? String } == ["C", "K"])
        #expect(values.map { $0["count"] as? Int } == [8, 0])
        for (index, value) in Self.facets[0].values.enumerated() {
            #expect(
                Self.positions(Self.file(files, "facets/0/", facets[0]["files"], index))
                    == value.positions.map(\.rawValue))
        }
    }

    /// Postings moved with the catalog equal those made afresh from the new names: over random
    /// rounds of fruits renamed, added and removed, one at a time and many at once, to and
    /// from an empty catalog, with names that share runs, repeat a gram and fold past ASCII.
    @Test func movedPostingsEqualPostingsMadeAfresh() {
        let builder = SearchShards()
        func postings(_ names: [[UInt8]]) -> GramPostings {
            let ends = names.reduce(into: [Int]()) { $0.append(($0.last ?? 0) + $1.count) }
            return builder.postings(of: Array(names.joined()), endingAt: ends)
        }
        let words = [
            "apple", "app", "aaa", "ba", "banana", "çaqui", "straße", "🍎", "İn", "e\u{301}",
        ]
        var random = SystemRandomNumberGenerator()
        func name() -> [UInt8] {
            let count = Int.random(in: 1...3, using: &random)
            return Fold.key(
                (0..<count).map { _ in words.randomElement(using: &random)! }
                    .joined(separator: " "))
        }
        // Each fruit: its name and an id that orders equal names, as the catalog's slugs do.
        var catalog: [(name: [UInt8], id: Int)] = []
        var nextID = 0
        var current = postings([])
        func sorted(_ fruits: [(name: [UInt8], id: Int)]) -> [(name: [UInt8], id: Int)] {
            fruits.sorted {
                $0.name != $1.name ? $0.name.lexicographicallyPrecedes($1.name) : $0.id < $1.id
            }
        }
        for round in 0..<300 {
            var next = catalog
            let edits =
                round % 10 == 9
                ? Int.random(in: 0...40, using: &random) : Int.random(in: 1...3, using: &random)
            var arrived: Set<Int> = []
            for _ in 0..<edits {
                switch Int.random(in: 0..<3, using: &random) {
                case 0 where !next.isEmpty:
                    next.remove(at: Int.random(in: next.indices, using: &random))
                case 1 where !next.isEmpty:
                    let index = Int.random(in: next.indices, using: &random)
                    next[index].name = name()
                    arrived.insert(next[index].id)
                default:
                    next.append((name(), nextID))
                    arrived.insert(nextID)
                    nextID += 1
                }
            }
            if round == 150 { next = [] }
            next = sorted(next)
            var newPosition: [Int: Int] = [:]
            for (position, fruit) in next.enumerated() { newPosition[fruit.id] = position }
            let moved = catalog.map { fruit in
                arrived.contains(fruit.id) ? -1 : newPosition[fruit.id] ?? -1
            }
            let arriving = next.indices.filter { arrived.contains(next[$0].id) }
                .map { (position: $0, name: next[$0].name) }
            current.move(moved, arriving: arriving)
            let fresh = postings(next.map(\.name))
            #expect(current == fresh, "round \(round), \(edits) edits")
            if current != fresh { return }
            catalog = next
        }
    }

    @Test func recordsFilesShareAStampOnlyPastTheManifestsRoom() {
        let builder = SearchShards()
        #expect(builder.recordsGroup(fileCount: 0) == 1)
        #expect(builder.recordsGroup(fileCount: 512) == 1)
        #expect(builder.recordsGroup(fileCount: 513) == 2)
        #expect(builder.recordsGroup(fileCount: 3_125) == 8)  // 100,000 fruits
        #expect(builder.recordsGroup(fileCount: 31_250) == 64)  // 1,000,000 fruits
    }

    @Test func theManifestsBuildIsTheStampOfWhatItNames() throws {
        let manifest = { (records: [ByteSlice]) throws -> [String: Any] in
            let files = Self.allFiles(
                Self.builder, names: Self.names.map(Fold.key), records: records,
                categories: Self.categories, facets: Self.facets)
            return try #require(
                JSONSerialization.jsonObject(with: Data(files[0].bytes)) as? [String: Any])
        }
        let before = try manifest(Self.records)
        var records = Self.records
        records[5] = ByteSlice(copying: #"{"n":-5}"#.utf8)
        let after = try manifest(records)
        let build = try #require(before["build"] as? String)
        #expect(ContentName.isStamped("x.\(build).json"))
        #expect(after["build"] as? String != build)
        // Only the stamp of the records file that changed.
        #expect(after["recordsFiles"] as? String != before["recordsFiles"] as? String)
        #expect(after["buckets"] as? String == before["buckets"] as? String)
        #expect(after["categoryFiles"] as? String == before["categoryFiles"] as? String)
    }

    @Test func anEmptyCatalogHasAManifestAndOneEmptyBucket() throws {
        let files = Self.allFiles(
            SearchShards(), names: [], records: [], categories: [], facets: [])
        #expect(
            files.map { ContentName.unstamped($0.path) } == [
                SearchShards.manifestPath, SearchShards.folder + "grams/0.json",
            ])
        #expect(String(decoding: files[1].bytes, as: UTF8.self) == "{}\n")
    }

    // MARK: - Config

    @Test func autoShardsAboveTheThreshold() throws {
        var config = SiteConfig()
        #expect(config.searchIndex == .auto)
        #expect(!config.shardsSearch(fruitCount: SiteConfig.shardedSearchThreshold))
        #expect(config.shardsSearch(fruitCount: SiteConfig.shardedSearchThreshold + 1))
        config = try SiteConfig(yaml: "search:\n  index: single\n", path: "fruitsite.yml")
        #expect(!config.shardsSearch(fruitCount: 1_000_000))
        config = try SiteConfig(yaml: "search: {index: sharded}\n", path: "fruitsite.yml")
        #expect(config.shardsSearch(fruitCount: 0))
    }

    @Test(arguments: [
        "search: sharded", "search: {index: shard}", "search: {index: }", "search: {kind: single}",
    ])
    func aBadSearchConfigIsAnErrorAtItsLine(config: String) throws {
        do {
            _ = try SiteConfig(yaml: "title: Fruits\n" + config + "\n", path: "fruitsite.yml")
            Issue.record("no error for \(config)")
        } catch {
            #expect(!error.diagnostics.isEmpty)
            #expect(error.diagnostics.allSatisfy { $0.location.line == 2 })
        }
    }
}
