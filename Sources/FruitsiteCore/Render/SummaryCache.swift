import Mustache

/// What the parts of a batch of pages mark to be made before the batch is rendered
/// (`PageRead.mark`): how each fruit is shown, and whether the sitemap is among the pages.
struct PageMarks {
    /// How a part shows a fruit.
    struct Use: OptionSet {
        let rawValue: UInt8
        /// Its summary, with links from two folders down (`PageData.nestedRoot`).
        static let nested = Use(rawValue: 1)
        /// Its summary, with links from the site root.
        static let atRoot = Use(rawValue: 2)
        /// What a listing shows of it, decoded: pages deeper down make their summaries from
        /// it, and JSON-LD names it.
        static let decoded = Use(rawValue: 4)
        /// The whole fruit, for its own page.
        static let whole = Use(rawValue: 8)

        /// The summary from `root`, kept when made from one of the two roots most pages have.
        static func summary(from root: String) -> Use {
            switch root {
            case "": .atRoot
            case PageData.nestedRoot: .nested
            default: .decoded
            }
        }
    }

    /// By catalog position, how the fruit there is shown, for the pages taken into the batch.
    private(set) var uses: [Use]
    private(set) var listsSitemap = false
    /// The marks of the page being walked, until it is taken into the batch or dropped.
    private var page: [(position: CatalogPosition, use: Use)] = []
    private var pageListsSitemap = false
    /// How many fruits the page being walked shows, each once however many parts show it.
    private(set) var pageCount = 0
    /// By catalog position, the number of the page that last marked the fruit there, which
    /// counts each fruit once a page.
    private var markedOn: [Int32]
    private var pageNumber: Int32 = 0

    init(fruitCount: Int) {
        uses = Array(repeating: [], count: fruitCount)
        markedOn = Array(repeating: -1, count: fruitCount)
    }

    mutating func mark(_ position: CatalogPosition, as use: Use) {
        if markedOn[position.rawValue] != pageNumber {
            markedOn[position.rawValue] = pageNumber
            pageCount += 1
        }
        page.append((position, use))
    }

    mutating func markSitemap() { pageListsSitemap = true }

    /// Takes the marks of the page walked into the batch.
    mutating func take() {
        for (position, use) in page { uses[position.rawValue].formUnion(use) }
        listsSitemap = listsSitemap || pageListsSitemap
        drop()
    }

    /// Forgets the marks of the page walked, which the batch does not take.
    mutating func drop() {
        page.removeAll(keepingCapacity: true)
        (pageListsSitemap, pageCount, pageNumber) = (false, 0, pageNumber + 1)
    }
}

/// The fruits the pages of a batch show, decoded once on every core, with the summaries of
/// those shown from two folders down or from the site root: a fruit page shows its
/// neighbours, which are fruit pages too, and a listing's first page may list every fruit.
/// Only the fruits marked are decoded, and only for the pages about to be rendered; pages
/// deeper down make the summaries they show themselves.
struct SummaryCache: Sendable {
    struct Prepared: Sendable {
        var listed: ListedFruit
        /// The whole fruit, for its own page.
        var fruit: Fruit?
        /// As seen from two folders down (`PageData.nestedRoot`), and from the site root.
        var nested: MustacheValue?
        var atRoot: MustacheValue?
    }

    private var prepared: [Prepared] = []
    /// For each catalog position, the index of its fruit in `prepared`, or -1. An array, not a
    /// dictionary: building a dictionary of thousands took longer than the lookups it served.
    private var index: [Int32] = []
    /// The catalog positions `prepared` holds, in its order.
    private var positions: [CatalogPosition] = []

    /// Makes what `marks` asks for, and drops what was made before.
    mutating func prepare(_ marks: PageMarks, _ data: PageData) {
        let uses = marks.uses
        let positions = (CatalogPosition(0)..<CatalogPosition(uses.count)).filter {
            !uses[$0.rawValue].isEmpty
        }
        prepared = positions.concurrentMap { position in
            let entry = data.model[position: position]
            let use = uses[position.rawValue]
            let fruit = use.contains(.whole) ? entry.fruit : nil
            let listed = fruit.map(ListedFruit.init) ?? entry.listed
            let slug = data.categorySlug(at: position)
            return Prepared(
                listed: listed, fruit: fruit,
                nested: use.contains(.nested)
                    ? PageData.summary(
                        of: listed, categorySlug: slug, root: PageData.nestedRoot,
                        pictures: data.config.images, strings: data.theme.strings)
                    : nil,
                atRoot: use.contains(.atRoot)
                    ? PageData.summary(
                        of: listed, categorySlug: slug, root: "", pictures: data.config.images,
                        strings: data.theme.strings)
                    : nil)
        }
        if index.count != uses.count {
            index = [Int32](repeating: -1, count: uses.count)
        }
        for position in self.positions { index[position.rawValue] = -1 }
        for (offset, position) in positions.enumerated() {
            index[position.rawValue] = Int32(offset)
        }
        self.positions = positions
    }

    /// What was prepared of the fruit at a catalog position, if it was: each part alone, as
    /// copying all of it for one costs a dozen reference counts.
    func listed(_ position: CatalogPosition) -> ListedFruit? {
        offset(position).map { prepared[$0].listed }
    }

    func fruit(_ position: CatalogPosition) -> Fruit? {
        offset(position).flatMap { prepared[$0].fruit }
    }

    func nested(_ position: CatalogPosition) -> MustacheValue? {
        offset(position).flatMap { prepared[$0].nested }
    }

    func atRoot(_ position: CatalogPosition) -> MustacheValue? {
        offset(position).flatMap { prepared[$0].atRoot }
    }

    private func offset(_ position: CatalogPosition) -> Int? {
        guard position.rawValue < index.count, index[position.rawValue] >= 0 else { return nil }
        return Int(index[position.rawValue])
    }
}
