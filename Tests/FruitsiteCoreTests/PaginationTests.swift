import Mustache
import Testing

@testable import FruitsiteCore

/// How listings are cut into pages, and what the page navigation shows.
@Suite struct PaginationTests {
    @Test(arguments: [
        (0, 0, 1), (0, 250, 1), (10, 0, 1), (10, 1, 1), (10, 10, 1), (10, 11, 2), (10, 100, 10),
        (10, 101, 11), (1, 3, 3),
    ])
    func countsPages(_ pageSize: Int, _ fruits: Int, _ pages: Int) {
        #expect(Pagination(pageSize: pageSize).pageCount(of: fruits) == pages)
    }

    @Test func pagesCoverTheListingOnceInOrder() {
        for pageSize in [0, 1, 3, 10] {
            for count in [0, 1, 9, 10, 11, 31] {
                let pagination = Pagination(pageSize: pageSize)
                let ranges = (1...pagination.pageCount(of: count)).map {
                    pagination.range(of: $0, in: count)
                }
                #expect(ranges.flatMap { Array($0) } == Array(0..<count), "\(pageSize), \(count)")
                #expect(ranges.allSatisfy { pageSize == 0 || $0.count <= pageSize })
            }
        }
    }

    @Test(arguments: [
        (1, 1, "./"), (1, 2, "page/2/"), (2, 1, "../../"), (2, 3, "../3/"), (5, 5, "../5/"),
    ])
    func linksRelativeToThePage(_ current: Int, _ target: Int, _ url: String) {
        #expect(Pagination.url(of: target, from: current) == url)
    }

    /// nil is a gap; a gap of one number shows the number instead.
    @Test(
        arguments: [
            (1, 1, [1]),
            (1, 2, [1, 2]),
            (1, 7, [1, 2, 3, nil, 7]),
            (2, 7, [1, 2, 3, 4, nil, 7]),
            (4, 7, [1, 2, 3, 4, 5, 6, 7]),
            (5, 10, [1, 2, 3, 4, 5, 6, 7, nil, 10]),
            (6, 12, [1, nil, 4, 5, 6, 7, 8, nil, 12]),
            (12, 12, [1, nil, 10, 11, 12]),
        ] as [(Int, Int, [Int?])])
    func showsTheFirstTheLastAndTwoEitherSide(_ current: Int, _ count: Int, _ shown: [Int?]) {
        #expect(Pagination.nearby(current, of: count) == shown)
    }

    @Test func pagerDataHasLinksToEveryNeighbour() throws {
        var warnings: [Diagnostic] = []
        let strings = ThemeStrings(
            tables: [:], language: "en", folder: "Templates/i18n", warnings: &warnings)
        func pager(_ current: Int, of count: Int) -> MustacheValue {
            PageData.pager(current, of: count, heading: "Berries", strings: strings)
        }
        #expect(pager(1, of: 1) == .null)
        guard case .object(let pager2) = pager(2, of: 7) else {
            Issue.record("no pager for page 2 of 7")
            return
        }
        #expect(pager2["current"] == 2 && pager2["count"] == 7)
        #expect(pager2["firstURL"] == "../../" && pager2["previousURL"] == "../../")
        #expect(pager2["nextURL"] == "../3/" && pager2["lastURL"] == "../7/")
        #expect(pager2["status"] == "Page 2 of 7" && pager2["heading"] == "Berries, page 2")
        guard case .object(let last) = pager(7, of: 7) else { return }
        #expect(last["nextURL"] == .null && last["isLast"] == true)
    }
}
