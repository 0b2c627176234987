import Foundation

/// A fruit's fields as the saved model holds them (`EntryFacts`): each in the order
/// `Fruit.visitFields` lists them, lists and strings with their lengths first.
struct FruitEncoder: FruitFieldVisitor {
    var writer: ByteWriter

    mutating func visit(_ name: StaticString, _ value: inout String, searched: Bool) {
        writer.string(value)
    }

    mutating func visit(_ name: StaticString, _ value: inout [String], searched: Bool) {
        writer.integer(value.count)
        for text in value { writer.string(text) }
    }

    mutating func visit(_ name: StaticString, _ value: inout Bool, searched: Bool) {
        writer.integer(value ? 1 : 0)
    }

    mutating func visit(_ name: StaticString, _ value: inout EntryDate?, searched: Bool) {
        writer.date(value)
    }

    mutating func visit(_ name: StaticString, _ value: inout [FacetValues], searched: Bool) {
        writer.integer(value.count)
        for facet in value {
            writer.string(facet.key)
            writer.integer(facet.values.count)
            for text in facet.values { writer.string(text) }
        }
    }

    mutating func visit(_ name: StaticString, _ value: inout FruitImage?, searched: Bool) {
        Self.write(value, to: &writer)
    }

    mutating func visit(key name: StaticString, _ value: inout [UInt8]) {
        writer.string(value)
    }

    /// A picture: whether there is one, then its fields.
    static func write(_ image: FruitImage?, to writer: inout ByteWriter) {
        guard let image else { return writer.integer(0) }
        writer.integer(1)
        writer.string(image.path)
        writer.string(image.alt)
        writer.word(image.sourceHash)
        writer.string(image.header.format.rawValue)
        writer.integer(image.header.width)
        writer.integer(image.header.height)
        writer.integer(image.header.hasAlpha ? 1 : 0)
        writer.string(image.placeholder.color)
        writer.string(Array(image.placeholder.preview))
        writer.integer(image.placeholder.previewWidth)
        writer.integer(image.placeholder.previewHeight)
    }
}

/// Reads what `FruitEncoder` wrote into the fields of a fruit; `isDamaged` once a field could
/// not be read, after which every field is left as it is.
struct FruitDecoder: FruitFieldVisitor {
    var reader: ByteReader
    private(set) var isDamaged = false

    init(_ reader: ByteReader) {
        self.reader = reader
    }

    /// The fruit the bytes hold, nil when they are damaged.
    static func decode(_ reader: inout ByteReader) -> Fruit? {
        var decoder = FruitDecoder(reader)
        var fruit = Fruit.unset
        fruit.visitFields(&decoder)
        reader = decoder.reader
        return decoder.isDamaged ? nil : fruit
    }

    mutating func fail() {
        isDamaged = true
    }

    /// A count of list items, which no fruit has 2^16 of.
    mutating func count() -> Int? {
        guard !isDamaged, let count = reader.integer(), count >= 0, count < 1 << 16 else {
            fail()
            return nil
        }
        return count
    }

    mutating func visit(_ name: StaticString, _ value: inout String, searched: Bool) {
        guard !isDamaged, let text = reader.string() else { return fail() }
        value = text
    }

    mutating func visit(_ name: StaticString, _ value: inout [String], searched: Bool) {
        guard let count = count() else { return }
        value.reserveCapacity(count)
        for _ in 0..<count {
            guard let text = reader.string() else { return fail() }
            value.append(text)
        }
    }

    mutating func visit(_ name: StaticString, _ value: inout Bool, searched: Bool) {
        guard !isDamaged, let flag = reader.integer() else { return fail() }
        value = flag != 0
    }

    mutating func visit(_ name: StaticString, _ value: inout EntryDate?, searched: Bool) {
        guard !isDamaged, let date = reader.date() else { return fail() }
        value = date
    }

    mutating func visit(_ name: StaticString, _ value: inout [FacetValues], searched: Bool) {
        guard let count = count() else { return }
        for _ in 0..<count {
            guard let key = reader.string() else { return fail() }
            var facet = FacetValues(key: key, values: [])
            visit(name, &facet.values, searched: searched)
            value.append(facet)
        }
    }

    mutating func visit(_ name: StaticString, _ value: inout FruitImage?, searched: Bool) {
        guard !isDamaged, let isThere = reader.integer() else { return fail() }
        guard isThere == 1 else { return isThere == 0 ? () : fail() }
        guard let path = reader.string(), let alt = reader.string(),
            let sourceHash = reader.word(),
            let format = reader.string().flatMap(PictureHeader.Format.init(rawValue:)),
            let width = reader.integer(), let height = reader.integer(),
            let hasAlpha = reader.integer(), let color = reader.string(),
            let preview = reader.bytes(), let previewWidth = reader.integer(),
            let previewHeight = reader.integer()
        else { return fail() }
        value = FruitImage(
            path: path, alt: alt, sourceHash: sourceHash,
            header: PictureHeader(
                format: format, width: width, height: height, hasAlpha: hasAlpha != 0),
            placeholder: PicturePlaceholder(
                color: color, preview: Data(preview), previewWidth: previewWidth,
                previewHeight: previewHeight))
    }

    mutating func visit(key name: StaticString, _ value: inout [UInt8]) {
        guard !isDamaged, let bytes = reader.bytes() else { return fail() }
        value = bytes
    }
}

/// Reads what a listing shows of a fruit (`ListedFruit`) from what `FruitEncoder` wrote,
/// skipping the rest without making it: a listing page shows a hundred fruits, and decoding
/// each one whole, with its facets and sort keys, had been a sixth of rendering the page.
struct ListedFruitDecoder: FruitFieldVisitor {
    private var decoder: FruitDecoder
    /// `Fruit.vitaminsText`, joined as it is read.
    private var vitamins = ""

    /// What a listing shows of the fruit the bytes hold, nil when they are damaged.
    static func decode(_ reader: inout ByteReader) -> ListedFruit? {
        var listed = ListedFruitDecoder(decoder: FruitDecoder(reader))
        var fruit = Fruit.unset
        fruit.visitFields(&listed)
        reader = listed.decoder.reader
        guard !listed.decoder.isDamaged else { return nil }
        return ListedFruit(
            slug: fruit.slug, name: fruit.name, emoji: fruit.emoji, category: fruit.category,
            vitamins: listed.vitamins, date: fruit.date, image: fruit.image)
    }

    mutating func visit(_ name: StaticString, _ value: inout String, searched: Bool) {
        decoder.visit(name, &value, searched: searched)
    }

    mutating func visit(_ name: StaticString, _ value: inout [String], searched: Bool) {
        guard name.withUTF8Buffer({ $0.elementsEqual("vitamins".utf8) }) else {
            return skipTexts()
        }
        guard let count = decoder.count() else { return }
        // Measured, then written into the string in place: most fruits' vitamins take a few
        // bytes, fewer than an array and its growth cost.
        let start = decoder.reader.offset
        var length = 0
        for index in 0..<count {
            guard let vitamin = decoder.reader.field() else { return decoder.fail() }
            length += vitamin.count + (index > 0 ? 2 : 0)
        }
        decoder.reader.offset = start
        vitamins = String(unsafeUninitializedCapacity: length) { text in
            var end = 0
            for index in 0..<count {
                let vitamin = decoder.reader.field()!
                if index > 0 {
                    text[end] = UInt8(ascii: ",")
                    text[end + 1] = UInt8(ascii: " ")
                    end += 2
                }
                for byte in vitamin {
                    text[end] = byte
                    end += 1
                }
            }
            return end
        }
        // A value with a bidirectional formatting character is shown isolated, as
        // `Fruit.vitaminsText` shows it: rare, so read again for it.
        if BidiIsolation.mayHoldFormatting(vitamins) {
            let end = decoder.reader.offset
            decoder.reader.offset = start
            vitamins = Fruit.listedText(of: (0..<count).map { _ in decoder.reader.string()! })
            decoder.reader.offset = end
        }
    }

    private mutating func skipTexts() {
        guard let count = decoder.count() else { return }
        for _ in 0..<count where decoder.reader.field() == nil { return decoder.fail() }
    }

    mutating func visit(_ name: StaticString, _ value: inout Bool, searched: Bool) {
        decoder.visit(name, &value, searched: searched)
    }

    mutating func visit(_ name: StaticString, _ value: inout EntryDate?, searched: Bool) {
        decoder.visit(name, &value, searched: searched)
    }

    mutating func visit(_ name: StaticString, _ value: inout [FacetValues], searched: Bool) {
        guard let count = decoder.count() else { return }
        for _ in 0..<count {
            guard decoder.reader.field() != nil else { return decoder.fail() }
            skipTexts()
        }
    }

    mutating func visit(_ name: StaticString, _ value: inout FruitImage?, searched: Bool) {
        decoder.visit(name, &value, searched: searched)
    }

    mutating func visit(key name: StaticString, _ value: inout [UInt8]) {
        if decoder.reader.field() == nil { decoder.fail() }
    }
}
