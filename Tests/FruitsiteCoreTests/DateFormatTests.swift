import Foundation
import TestSupport
import Testing

@testable import FruitsiteCore

/// A fruit's date as the site's language writes it: ICU's long date style, the day in UTC.
@Suite struct DateFormatTests {
    static func day(_ text: String) throws -> EntryDate {
        try #require(EntryDate(yaml: text), "\(text)")
    }

    @Test(arguments: [("en", "May 1, 2024"), ("fr", "1 mai 2024"), ("fr-CA", "1 mai 2024")])
    func aDayIsWrittenAsTheLanguageWritesIt(language: String, expected: String) throws {
        let (strings, _) = try ThemeStringsTests.strings(language)
        #expect(strings.date(try Self.day("2024-05-01")) == expected)
    }

    /// Arabic writes the month's name, and the digits the build writes numbers with: Latin
    /// ones for `ar` by CLDR since version 42, Arabic-Indic ones for Egypt's Arabic.
    @Test(arguments: ["ar", "ar-EG"])
    func arabicWritesTheMonthWithTheDigitsOfItsNumbers(language: String) throws {
        let (strings, _) = try ThemeStringsTests.strings(language)
        let text = strings.date(try Self.day("2024-05-01"))
        #expect(text.contains("مايو"), "\(text)")
        #expect(text.hasSuffix(strings.number(20) + strings.number(24)), "\(text)")
        #expect(text.hasPrefix(strings.number(1) + " "), "\(text)")
        let digits = strings.numbers.numberingSystem == "arab" ? "٠١٢٣٤٥٦٧٨٩" : "0123456789"
        #expect(
            text.unicodeScalars.filter { $0.properties.numericType != nil }.allSatisfy {
                digits.unicodeScalars.contains($0)
            }, "\(text)")
    }

    /// The day is UTC's, whatever the machine's zone: a moment just before or after midnight
    /// UTC stays on its side of it, as `day` and the feeds have it.
    @Test(arguments: [
        ("2024-05-01T00:00:00Z", "May 1, 2024"),
        ("2024-05-01T23:59:59Z", "May 1, 2024"),
        ("2024-05-02 00:30:00 +02:00", "May 1, 2024"),
        ("2024-04-30T23:30:00-01:00", "May 1, 2024"),
        ("2024-05-01T00:00:00+00:01", "April 30, 2024"),
        ("1969-12-31T23:59:59Z", "December 31, 1969"),
    ])
    func aMomentNearMidnightKeepsItsDayInUTC(text: String, expected: String) throws {
        let date = try Self.day(text)
        let (english, _) = try ThemeStringsTests.strings("en")
        #expect(english.date(date) == expected, "\(text) is \(date.timestamp)")
    }

    /// Days before the Gregorian reform are the proleptic Gregorian calendar's, as `EntryDate`
    /// counts them, not the Julian ones ICU's calendar has by default.
    @Test(arguments: [
        ("0001-01-01", "January 1, 1"),
        ("1582-10-04", "October 4, 1582"),
        ("1582-10-15", "October 15, 1582"),
        ("9999-12-31T23:59:59Z", "December 31, 9999"),
    ])
    func everyDayIsTheProlepticGregorianOne(text: String, expected: String) throws {
        let (english, _) = try ThemeStringsTests.strings("en")
        #expect(english.date(try Self.day(text)) == expected)
    }

    /// One format per language in a process, opened at its first date, which writes each day
    /// once: a listing shows a fruit's date on every page that lists it.
    @Test func theFormatOfALanguageIsOpenedOnceAndWritesEachDayOnce() throws {
        // A tag no other test uses, so that no other test writes days with its format.
        let language = "fr-LU"
        let (first, _) = try Self.stringsWithoutTables(language)
        let (second, _) = try Self.stringsWithoutTables(language)
        #expect(first.dates === second.dates)
        #expect(first.dates !== DateFormat.of("fr", numberingSystem: "latn"))
        let format = first.dates
        #expect(!format.isOpened)
        let written = format.writtenCount
        let may = try Self.day("2024-05-01")
        let text = format.string(may)
        #expect(format.isOpened)
        #expect(format.string(try Self.day("2024-05-01T18:00:00Z")) == text)
        #expect(format.writtenCount == written + 1)
        #expect(format.string(try Self.day("2024-05-02")) == "2 mai 2024")
        #expect(format.writtenCount == written + 2)
    }

    static func stringsWithoutTables(_ language: String) throws -> (ThemeStrings, [Diagnostic]) {
        var warnings: [Diagnostic] = []
        let strings = ThemeStrings(
            tables: [:], language: language, folder: "Templates/i18n", warnings: &warnings)
        return (strings, warnings)
    }

    // MARK: - A built site

    static let dated: [(slug: String, front: String)] = [
        ("apple", "name: Apple\ncategory: Pome\ndate: 2024-05-01T23:30:00Z"),
        ("pear", "name: Pear\ncategory: Pome"),
    ]

    /// The page shows the day as the language writes it, in a `<time>` whose `datetime` is
    /// the moment; the feeds and the sitemap keep their timestamps.
    @Test(arguments: [
        ("en", "May 1, 2024"), ("fr", "1 mai 2024"),
    ])
    func aFruitPageShowsItsDateInTheSitesLanguage(language: String, expected: String) throws {
        let (site, options) = try temporarySite(
            config: "baseURL: https://example.org/\nlanguage: \(language)\n",
            entries: Self.dated)
        defer { site.remove() }
        _ = try SiteBuilder(options: options).build()
        let page = try site.read("Output/fruits/apple/index.html")
        #expect(page.contains(#"<time datetime="2024-05-01T23:30:00Z">\#(expected)</time>"#))
        #expect(
            try site.read("Output/feed.xml").contains("<updated>2024-05-01T23:30:00Z</updated>"))
        #expect(
            try site.read("Output/sitemap.xml").contains("<lastmod>2024-05-01T23:30:00Z</lastmod>"))
        #expect(!(try site.read("Output/fruits/pear/index.html")).contains("<time"))
    }

    /// A listed fruit has the date too, and its ISO day, for a theme that wants it.
    @Test func aListedFruitHasItsDateAndItsDay() throws {
        var (site, options) = try temporarySite(config: "language: fr\n", entries: Self.dated)
        defer { site.remove() }
        options.templatesDirectory = try Self.theme(
            in: site,
            card: "<li>{{name}}{{#date}}: {{date}} ({{day}}, {{dateTime}}){{/date}}</li>\n")
        _ = try SiteBuilder(options: options).build()
        let category = try site.read("Output/categories/pome/index.html")
        #expect(
            category.contains("<li>Apple: 1 mai 2024 (2024-05-01, 2024-05-01T23:30:00Z)</li>"))
        #expect(category.contains("<li>Pear</li>"))
    }

    /// A copy of the default theme in `site`'s `Templates/`, its fruit card `card`.
    static func theme(in site: TemporaryDirectory, card: String) throws -> String {
        let templates = site.path + "/Templates"
        try FileManager.default.copyItem(atPath: repositoryRoot + "/Templates", toPath: templates)
        try site.write("Templates/partials/fruit-card.mustache", card)
        return templates
    }
}
