/// How a listing of fruits (the index, a category) is cut into pages of `pageSize` fruits:
/// page 1 at the listing's own address, page `n` at `page/<n>/` below it.
struct Pagination: Sendable, Equatable {
    /// Fruits per page; 0 puts every fruit on one page.
    var pageSize: Int

    /// How many pages a listing of `count` fruits has: at least one, even when empty.
    func pageCount(of count: Int) -> Int {
        guard pageSize > 0, count > pageSize else { return 1 }
        return (count + pageSize - 1) / pageSize
    }

    /// The positions in the listing that page `number` (1-based) shows.
    func range(of number: Int, in count: Int) -> Range<Int> {
        guard pageSize > 0 else { return 0..<count }
        let start = min((number - 1) * pageSize, count)
        return start..<min(start + pageSize, count)
    }

    /// The folder below a listing's address that holds its later pages.
    static let folder = "page/"

    /// The address of page `number` below its listing's address.
    static func address(of number: Int) -> String {
        number == 1 ? "" : "\(folder)\(number)/"
    }

    /// The relative URL of page `number` as seen from page `current` of the same listing.
    static func url(of number: Int, from current: Int) -> String {
        switch (current, number) {
        case (1, 1): "./"
        case (1, _): "page/\(number)/"
        case (_, 1): "../../"
        default: "../\(number)/"
        }
    }

    /// The page numbers a page navigation shows around page `current` of `count`: the first,
    /// the last and the two either side of `current`, with nil for each run of numbers left
    /// out. A run of one number is shown rather than replaced by a gap.
    static func nearby(_ current: Int, of count: Int) -> [Int?] {
        var shown = Set([1, count])
        for number in (current - 2)...(current + 2) where (1...count).contains(number) {
            shown.insert(number)
        }
        var numbers: [Int?] = []
        var last = 0
        for number in shown.sorted() {
            if number - last == 2 {
                numbers.append(last + 1)
            } else if number - last > 2 {
                numbers.append(nil)
            }
            numbers.append(number)
            last = number
        }
        return numbers
    }
}
