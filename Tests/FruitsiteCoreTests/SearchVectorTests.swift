import Foundation
import FruitsiteCore
import TestSupport
import Testing

/// The conformance vectors the JavaScript client passes too (`Tests/Fixtures/search-vectors.json`).
@Suite struct SearchVectorTests {
    struct Vectors: Decodable {
        struct Entry: Decodable {
            var slug: String
            var name: String
            var category: String
            var facets: [String: [String]]?
        }
        struct FilterCase: Decodable, CustomTestStringConvertible, Sendable {
            var name: String
            var catalog: [Entry]
            var text: String
            var category: String?
            var facets: [String: String]?
            var expected: [String]
            var testDescription: String { name }
        }
        struct OrderCase: Decodable, CustomTestStringConvertible, Sendable {
            var name: String
            /// The BCP 47 tag whose collation orders the catalog.
            var language: String
            var catalog: [Entry]
            var expected: [String]
            var testDescription: String { name }
        }
        struct FoldCase: Decodable, CustomTestStringConvertible, Sendable {
            var input: String
            var expected: String
            var testDescription: String {
                input.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " ")
            }
        }
        var filterCases: [FilterCase]
        var orderCases: [OrderCase]
        var foldCases: [FoldCase]
    }

    static let vectors: Vectors = {
        let path = repositoryRoot + "/Tests/Fixtures/search-vectors.json"
        guard let data = FileManager.default.contents(atPath: path),
            let vectors = try? JSONDecoder().decode(Vectors.self, from: data)
        else { return Vectors(filterCases: [], orderCases: [], foldCases: []) }
        return vectors
    }()

    /// Catalog strings are NFC-normalized first, as the loader does.
    static func catalog(_ entries: [Vectors.Entry], collation: Collation = .root) -> Catalog {
        Catalog(
            fruits: entries.map {
                Fruit(
                    slug: $0.slug, name: Fold.normalizeNFC($0.name),
                    category: Fold.normalizeNFC($0.category),
                    facets: ($0.facets ?? [:]).sorted { $0.key < $1.key }.map {
                        FacetValues(key: $0.key, values: $0.value.map(Fold.normalizeNFC))
                    })
            }, collation: collation)
    }

    /// Code points, for comparisons that must not treat NFC and NFD as equal.
    static func scalars(_ text: String) -> [UInt32] { text.unicodeScalars.map(\.value) }

    @Test func vectorsArePresent() {
        #expect(Self.vectors.filterCases.count >= 30)
        #expect(Self.vectors.orderCases.count >= 3)
    }

    @Test(arguments: vectors.filterCases)
    func filters(_ vector: Vectors.FilterCase) {
        let catalog = Self.catalog(vector.catalog)
        let unsortedOrder = vector.catalog.map(\.slug)
        // The vectors give the catalog in the order the filter sees it; keep that order.
        let fruits = unsortedOrder.compactMap { slug in catalog.fruits.first { $0.slug == slug } }
        let facets = (vector.facets ?? [:]).sorted { $0.key < $1.key }.map {
            (key: $0.key, value: $0.value)
        }
        let names = Catalog.filter(
            fruits, searchText: vector.text, category: vector.category, facets: facets
        ).map(\.name)
        // Scalars, not Strings: String's == would call NFC and NFD spellings equal.
        #expect(names.map(Self.scalars) == vector.expected.map(Self.scalars))
    }

    @Test(arguments: vectors.orderCases)
    func orders(_ vector: Vectors.OrderCase) {
        let names = Self.catalog(vector.catalog, collation: .of(vector.language)).fruits.map(\.name)
        #expect(names.map(Self.scalars) == vector.expected.map(Self.scalars))
    }

    @Test(arguments: vectors.foldCases)
    func folds(_ vector: Vectors.FoldCase) {
        #expect(
            Array(Fold.fold(vector.input).unicodeScalars) == Array(vector.expected.unicodeScalars))
    }
}
