import Foundation
import Testing

@testable import FruitsiteCore

/// A fruit's fields are listed once (`Fruit.visitFields`): each field, changed in turn, moves
/// the summary hash, survives the saved model's bytes, and changes the search record exactly
/// when the search record shows it. A field added to the list is tested here as it is.
@Suite struct FruitFieldsTests {
    static let fruit = Fruit(
        slug: "blood-orange", name: "Blood Orange", emoji: "🍊", category: "Citrus",
        vitamins: ["C", "A"], date: EntryDate(seconds: 1_700_000_000),
        facets: [FacetValues(key: "vitamins", values: ["C", "A"])])

    /// How many fields the list has, and which the search record shows, by their order.
    static let fields: [(name: String, isKey: Bool, searched: Bool)] = {
        var fields = Self.fruit
        var lister = Lister()
        fields.visitFields(&lister)
        return lister.fields
    }()

    @Test func theFruitSurvivesTheSavedModelsBytes() {
        #expect(Self.decoded(Self.encoded(Self.fruit)) == Self.fruit)
        #expect(Self.listed(Self.encoded(Self.fruit)) == ListedFruit(Self.fruit))
    }

    @Test(arguments: fields.indices.filter { !fields[$0].isKey })
    func eachFieldReachesTheHashTheBytesAndTheSearchRecord(_ index: Int) {
        var changed = Self.fruit
        var changer = Changer(target: index)
        changed.visitFields(&changer)
        let name = Self.fields[index].name
        #expect(changed != Self.fruit, "\(name) did not change")
        #expect(changed.summaryHash != Self.fruit.summaryHash, "\(name) is not hashed")
        let bytes = Self.encoded(changed)
        #expect(Self.decoded(bytes) == changed, "\(name) is not kept")
        #expect(Self.listed(bytes) == ListedFruit(changed), "\(name) is not listed as it is")
        let records = (
            SearchIndexBuilder.record(of: Self.fruit, pictures: PictureSettings()),
            SearchIndexBuilder.record(of: changed, pictures: PictureSettings())
        )
        #expect((records.0 != records.1) == Self.fields[index].searched, "\(name)'s record")
    }

    static func encoded(_ fruit: Fruit) -> ByteSlice {
        var writer = ByteWriter()
        EntryFacts(
            EntryFacts.Value(fruit: fruit, categoryLine: 1, categoryColumn: 1, warnings: [])
        ).encode(pictures: PictureSettings(), into: &writer)
        return ByteSlice(copying: writer.bytes)
    }

    static func facts(_ bytes: ByteSlice) -> EntryFacts {
        bytes.withUnsafeBytes { buffer in
            var reader = ByteReader(buffer, offset: 0)
            return EntryFacts.read(from: &reader, in: bytes)!
        }
    }

    static func decoded(_ bytes: ByteSlice) -> Fruit { facts(bytes).value.fruit }

    static func listed(_ bytes: ByteSlice) -> ListedFruit { facts(bytes).listed }
}

/// Lists the fields' names, and whether each is a folded key or searched.
private struct Lister: FruitFieldVisitor {
    var fields: [(name: String, isKey: Bool, searched: Bool)] = []

    mutating func add(_ name: StaticString, isKey: Bool = false, _ searched: Bool) {
        fields.append(("\(name)", isKey, searched))
    }

    mutating func visit(_ name: StaticString, _ value: inout String, searched: Bool) {
        add(name, searched)
    }
    mutating func visit(_ name: StaticString, _ value: inout [String], searched: Bool) {
        add(name, searched)
    }
    mutating func visit(_ name: StaticString, _ value: inout Bool, searched: Bool) {
        add(name, searched)
    }
    mutating func visit(_ name: StaticString, _ value: inout EntryDate?, searched: Bool) {
        add(name, searched)
    }
    mutating func visit(_ name: StaticString, _ value: inout [FacetValues], searched: Bool) {
        add(name, searched)
    }
    mutating func visit(_ name: StaticString, _ value: inout FruitImage?, searched: Bool) {
        add(name, searched)
    }
    mutating func visit(key name: StaticString, _ value: inout [UInt8]) {
        add(name, isKey: true, false)
    }
}

/// Changes the field at `target`, by its order, and no other.
private struct Changer: FruitFieldVisitor {
    let target: Int
    var index = 0

    mutating func isTarget() -> Bool {
        defer { index += 1 }
        return index == target
    }

    mutating func visit(_ name: StaticString, _ value: inout String, searched: Bool) {
        if isTarget() { value += "x" }
    }
    mutating func visit(_ name: StaticString, _ value: inout [String], searched: Bool) {
        if isTarget() { value.append("B6") }
    }
    mutating func visit(_ name: StaticString, _ value: inout Bool, searched: Bool) {
        if isTarget() { value.toggle() }
    }
    mutating func visit(_ name: StaticString, _ value: inout EntryDate?, searched: Bool) {
        if isTarget() { value = EntryDate(seconds: (value?.seconds ?? 0) + 86_400) }
    }
    mutating func visit(_ name: StaticString, _ value: inout [FacetValues], searched: Bool) {
        if isTarget() { value.append(FacetValues(key: "season", values: ["winter"])) }
    }
    mutating func visit(_ name: StaticString, _ value: inout FruitImage?, searched: Bool) {
        guard isTarget() else { return }
        value = FruitImage(
            path: "Content/blood-orange.jpg", alt: "A halved blood orange", sourceHash: 7,
            header: PictureHeader(format: .jpeg, width: 640, height: 480, hasAlpha: false),
            placeholder: PicturePlaceholder(
                color: "#a02030", preview: Data([1, 2, 3]), previewWidth: 16, previewHeight: 12))
    }
    mutating func visit(key name: StaticString, _ value: inout [UInt8]) {
        _ = isTarget()
    }
}
