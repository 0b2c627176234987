import Testing

@testable import FruitsiteCore

@Suite struct ContentNameTests {
    @Test func stampIsEightCharactersOfLowercaseBase32() {
        #expect(ContentName.stamp(0) == "aaaaaaaa")
        #expect(ContentName.stamp(31) == "aaaaaaa7")
        #expect(ContentName.stamp(32) == "aaaaaaba")
        // Only the low 40 bits count.
        #expect(ContentName.stamp(0xFFFF_FF00_0000_0000) == "aaaaaaaa")
        #expect(ContentName.stamp(0xFF_FFFF_FFFF) == "77777777")
    }

    @Test(arguments: [
        ("assets/site.css", "assets/site.aaaaaabb.css"),
        ("search/grams/7.json", "search/grams/7.aaaaaabb.json"),
        ("assets/jquery.min.js", "assets/jquery.min.aaaaaabb.js"),
        ("assets/LICENSE", "assets/LICENSE.aaaaaabb"),
        ("assets/.hidden", "assets/.hidden.aaaaaabb"),
        ("a.b/file", "a.b/file.aaaaaabb"),
    ])
    func stampGoesBeforeTheLastExtension(path: String, stamped: String) {
        #expect(ContentName.path(path, hash: 33) == stamped)
        #expect(ContentName.isStamped(stamped))
        #expect(!ContentName.isStamped(path))
        #expect(ContentName.unstamped(stamped) == path)
        #expect(ContentName.unstamped(path) == path)
    }

    @Test func namesThatOnlyLookStampedAreTold() {
        #expect(!ContentName.isStamped("assets/site.ABCDEFGH.css"))
        #expect(!ContentName.isStamped("assets/site.abcdefg.css"))
        #expect(!ContentName.isStamped("assets/site.abcdefgh1.css"))
        #expect(ContentName.isStamped("search/records/12.abcdefgh.json"))
    }
}
