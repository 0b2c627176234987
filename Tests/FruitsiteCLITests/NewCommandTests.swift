import FruitsiteCore
import Foundation
@testable import FruitsiteCLI
import TestSupport
import Testing

/// `fruitsite new` and `fruitsite init` write files that build, and never overwrite.
@Suite struct NewCommandTests {
    @Test func newWritesAnEntryThatBuildsWithTheNameAsTyped() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let content = folder.path + "/Content"
        try FileManager.default.createDirectory(atPath: content, withIntermediateDirectories: false)
        let name = #"Açaí "Queen" \ Berry"#
        let (code, capture) = Capture.run([
            "new", name, "--category", "Berries: wild", "--emoji", "🫐", "--vitamins", "C, A",
            "--content", content,
        ])
        #expect(code == .success)
        #expect(capture.standardOutput == content + "/acai-queen-berry.md\n")
        let (searchCode, search) = Capture.run(["search", "--json", "--content", content, "queen"])
        #expect(searchCode == .success)
        let entries = try JSONSerialization.jsonObject(with: Data(search.standardOutput.utf8))
        let entry = try #require((entries as? [[String: Any]])?.first)
        #expect(entry["name"] as? String == name)
        #expect(entry["category"] as? String == "Berries: wild")
        #expect(entry["emoji"] as? String == "🫐")
        #expect(entry["vitamins"] as? String == "C, A")
        #expect(entry["facets"] as? [String: [String]] == ["vitamins": ["C", "A"]])
        let (checkCode, _) = Capture.run([
            "check", "--content", content, "--templates", repositoryRoot + "/Templates",
        ])
        #expect(checkCode == .success)
    }

    @Test func newNeverOverwrites() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try folder.write("Content/citrus/blood-orange.md", "---\nname: Mine\ncategory: C\n---\n")
        let (code, capture) = Capture.run([
            "new", "Blood Orange", "--category", "Citrus", "--content", folder.path + "/Content",
        ])
        #expect(code == .failure)
        #expect(capture.standardError.contains("an entry named 'blood-orange' exists already"))
        #expect(try folder.read("Content/citrus/blood-orange.md").contains("name: Mine"))
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/Content/blood-orange.md"))
        #expect(Capture.run(["new", "Kiwi"]).0 == .usage)  // no --category

        // A hidden folder holds no entry a build reads: its file does not take the slug.
        try folder.write("Content/.drafts/kiwi.md", "---\nname: Old\ncategory: C\n---\n")
        let (kiwiCode, kiwi) = Capture.run([
            "new", "Kiwi", "--category", "Vines", "--content", folder.path + "/Content",
        ])
        #expect(kiwiCode == .success, "\(kiwi.standardError)")
        #expect(FileManager.default.fileExists(atPath: folder.path + "/Content/kiwi.md"))
    }

    @Test func initScaffoldsASiteThatBuildsWithTheDefaultTheme() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let site = folder.path + "/catalog"
        let (code, capture) = Capture.run(["init", site])
        #expect(code == .success)
        #expect(capture.standardOutput.contains("cd \(site) && fruitsite serve"))
        let theme = filesBelow(repositoryRoot + "/Templates")
        #expect(filesBelow(site + "/Templates") == theme)
        for file in theme {
            #expect(
                FileManager.default.contents(atPath: site + "/Templates/" + file)
                    == FileManager.default.contents(atPath: repositoryRoot + "/Templates/" + file),
                "\(file)")
        }
        let (buildCode, build) = Capture.run([
            "build", "--content", site + "/Content", "--templates", site + "/Templates",
            "--config", site + "/fruitsite.yml", "--output", site + "/Output", "--cache-dir",
            site + "/.fruitsite-cache",
        ])
        #expect(buildCode == .success, "\(build.standardError)")
        #expect(build.standardOutput.contains("(3 fruits, 3 categories)"))
        let index = try String(contentsOfFile: site + "/Output/index.html", encoding: .utf8)
        #expect(index.contains("My Fruit Catalog"))
        #expect(
            try String(contentsOfFile: site + "/.gitignore", encoding: .utf8).contains("/Output/"))

        let (again, refused) = Capture.run(["init", site])
        #expect(again == .failure)
        #expect(refused.standardError.contains("the folder is not empty"))
    }

    /// `init`'s config points to the config's reference, and each setting it shows commented
    /// out builds once uncommented: feeds and facets too, a new entry in the feeds.
    @Test func initsConfigExamplesBuildOnceUncommented() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let site = folder.path + "/catalog"
        #expect(Capture.run(["init", site]).0 == .success)
        let config = try String(contentsOfFile: site + "/fruitsite.yml", encoding: .utf8)
        #expect(config.contains("fruitsite's docs/reference/config.md"))
        #expect(!config.contains("README"))
        var uncommented: [String] = []
        let lines = config.split(separator: "\n", omittingEmptySubsequences: false).map {
            line -> Substring in
            guard line.hasPrefix("# "),
                let key = line.dropFirst(2).split(separator: ":").first,
                SiteConfig.keys.contains(String(key))
            else { return line }
            uncommented.append(String(key))
            return line.dropFirst(2)
        }
        #expect(Set(uncommented).isSuperset(of: ["baseURL", "feed", "facets"]), "\(uncommented)")
        try lines.joined(separator: "\n").write(
            toFile: site + "/fruitsite.yml", atomically: true, encoding: .utf8)
        let (newCode, new) = Capture.run([
            "new", "Kiwi", "--category", "Vines", "--vitamins", "C, K", "--content",
            site + "/Content",
        ])
        #expect(newCode == .success, "\(new.standardError)")
        let (code, build) = Capture.run([
            "build", "--content", site + "/Content", "--templates", site + "/Templates",
            "--config", site + "/fruitsite.yml", "--output", site + "/Output", "--cache-dir",
            site + "/.fruitsite-cache",
        ])
        #expect(code == .success, "\(build.standardError)")
        #expect(build.standardError.isEmpty, "\(build.standardError)")
        #expect(
            try String(contentsOfFile: site + "/Output/feed.xml", encoding: .utf8).contains("Kiwi"))
        #expect(FileManager.default.fileExists(atPath: site + "/Output/vitamins/k/index.html"))
    }

    /// Without `--date`, `new` dates the entry with the day it is, where the user is: the
    /// fruit reaches the feeds.
    @Test func newDatesTheEntryTodayByDefault() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try folder.write("Content/apple.md", "---\nname: Apple\ncategory: Pome\n---\n")
        try folder.write("fruitsite.yml", "baseURL: https://example.org/\n")
        // The local day as the calendar has it, before and after: midnight may fall between.
        let today = {
            let day = Calendar.current.dateComponents([.year, .month, .day], from: Date())
            let (month, date) = (day.month ?? 0, day.day ?? 0)
            return
                "\(day.year ?? 0)-\(month < 10 ? "0" : "")\(month)-\(date < 10 ? "0" : "")\(date)"
        }
        let before = today()
        let (code, capture) = Capture.run([
            "new", "Kiwi", "--category", "Vines", "--content", folder.path + "/Content",
        ])
        let after = today()
        #expect(code == .success, "\(capture.standardError)")
        let entry = try folder.read("Content/kiwi.md")
        #expect(
            entry.contains("\ndate: \(before)\n") || entry.contains("\ndate: \(after)\n"),
            "\(entry)")
        let (buildCode, build) = Capture.run([
            "build", "--content", folder.path + "/Content", "--templates",
            repositoryRoot + "/Templates", "--config", folder.path + "/fruitsite.yml",
            "--output", folder.path + "/Output", "--cache-dir", folder.path + "/.cache",
        ])
        #expect(buildCode == .success, "\(build.standardError)")
        let feed = try folder.read("Output/feed.xml")
        #expect(feed.contains("Kiwi") && !feed.contains("Apple"))
    }

    /// `--date` is read as a build reads `date:`, and written as a date alone when it is
    /// one; `--no-date` writes none.
    @Test func newTakesADateOrNone() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let content = folder.path + "/Content"
        try folder.write("Content/apple.md", "---\nname: Apple\ncategory: Pome\n---\n")
        for (name, option, line) in [
            ("Fig", ["--date", "2024-05-01"], "date: 2024-05-01\n"),
            ("Kiwi", ["--date=2024-05-01 09:30:00 +02:00"], "date: 2024-05-01T07:30:00Z\n"),
            ("Lime", ["--date", "2024-05-01T00:00:00Z"], "date: 2024-05-01\n"),
            ("Plum", ["--no-date"], nil),
        ] {
            let (code, capture) = Capture.run(
                ["new", name, "--category", "X", "--content", content] + option)
            #expect(code == .success, "\(option): \(capture.standardError)")
            let entry = try folder.read("Content/\(name.lowercased()).md")
            #expect(line.map { entry.contains("\n" + $0) } ?? !entry.contains("date:"), "\(entry)")
        }
        #expect(
            Capture.run([
                "check", "--content", content, "--templates", repositoryRoot + "/Templates",
            ]).0 == .success)
        for (option, message) in [
            (["--date", "2023-02-29"], "error: --date must be a date like 2024-05-01 or a "),
            (["--date", "today"], "error: --date must be a date like 2024-05-01 or a "),
            (["--date", "2024-05-01", "--no-date"], "error: --date and --no-date cannot be given"),
        ] {
            let (code, capture) = Capture.run(
                ["new", "Pear", "--category", "X", "--content", content] + option)
            #expect(code == .usage, "\(option)")
            #expect(capture.standardError.hasPrefix(message), "\(capture.standardError)")
            #expect(!FileManager.default.fileExists(atPath: content + "/pear.md"))
        }
    }

    /// The default date is the day on the user's clock, not UTC's.
    @Test func theDefaultDayIsTheLocalOne() throws {
        let lateOnMayFirst = Date(timeIntervalSince1970: 1_714_606_200)  // 23:30 UTC
        let earlyOnMayFirst = Date(timeIntervalSince1970: 1_714_523_400)  // 00:30 UTC
        let zone = { (hours: Int) in try #require(TimeZone(secondsFromGMT: hours * 3_600)) }
        #expect(NewCommand.day(of: lateOnMayFirst, in: try zone(0)).day == "2024-05-01")
        #expect(NewCommand.day(of: lateOnMayFirst, in: try zone(2)).day == "2024-05-02")
        #expect(NewCommand.day(of: lateOnMayFirst, in: try zone(-10)).day == "2024-05-01")
        #expect(NewCommand.day(of: earlyOnMayFirst, in: try zone(-10)).day == "2024-04-30")
        #expect(NewCommand.day(of: earlyOnMayFirst, in: try zone(-10)).yamlText == "2024-04-30")
        #expect(
            NewCommand.day(of: Date(timeIntervalSince1970: -1), in: try zone(0)).day == "1969-12-31"
        )
    }

    /// An empty name is a wrong command line: joined with the site's paths, an empty
    /// folder's would have written them into `/`.
    @Test func anEmptyFolderOrFruitNameIsAUsageError() throws {
        let (code, capture) = Capture.run(["init", ""])
        #expect(code == .usage)
        #expect(capture.standardError.contains("error: the folder's name is empty"))
        let (newCode, new) = Capture.run(["new", " ", "--category", "X"])
        #expect(newCode == .usage)
        #expect(new.standardError.contains("error: the fruit's name is empty"))
        #expect(throws: BuildFailure.self) { try SiteScaffold.create(at: "") }
    }

    /// `new` refuses what a build would: it never writes an entry that does not build.
    @Test func refusesValuesABuildWouldRefuse() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let (code, capture) = Capture.run([
            "new", "Two\nLines", "--category", "X", "--content", folder.path + "/Content",
        ])
        #expect(code == .failure)
        #expect(
            capture.standardError.contains(
                "Content/two-lines.md: error: 'name' must be one line"),
            "\(capture.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/Content/two-lines.md"))
    }

    /// Nor one whose category or facet value another entry, a draft too, spells otherwise
    /// with the same URL slug: the build would refuse both.
    @Test func refusesASpellingThatClashesWithTheSites() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try folder.write(
            "Content/banana.md", "---\nname: Banana\ncategory: Tropical\nvitamins: C\n---\n")
        try folder.write(
            "Content/plum.md", "---\nname: Plum\ncategory: Stone\nvitamins: K\ndraft: true\n---\n")
        let content = folder.path + "/Content"
        for (arguments, expected) in [
            (
                ["--category", "tropical"],
                "category 'tropical' is spelled 'Tropical' by banana: both have the URL slug 'tropical'"
            ),
            (
                ["--category", "Tropical", "--vitamins", "c"],
                "vitamins 'c' is spelled 'C' by banana"
            ),
            (["--category", "stone"], "category 'stone' is spelled 'Stone' by plum"),
        ] {
            let (code, capture) = Capture.run(
                ["new", "Kiwi", "--content", content] + arguments)
            #expect(code == .failure, "\(arguments)")
            #expect(capture.standardError.contains(expected), "\(capture.standardError)")
            #expect(!FileManager.default.fileExists(atPath: content + "/kiwi.md"))
        }
        let (code, capture) = Capture.run(
            ["new", "Kiwi", "--content", content, "--category", "Tropical", "--vitamins", "C, K"])
        #expect(code == .success, "\(capture.standardError)")
        #expect(
            Capture.run([
                "check", "--content", content, "--templates", repositoryRoot + "/Templates",
            ]).0 == .success)
    }

    /// The hint's command can be pasted into a shell whatever the folder is called.
    @Test func theHintQuotesAFolderAShellWouldSplit() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let site = folder.path + "/it's mine"
        let (code, capture) = Capture.run(["init", site])
        #expect(code == .success)
        #expect(
            capture.standardOutput.contains(
                #"cd '\#(folder.path)/it'\''s mine' && fruitsite serve"#),
            "\(capture.standardOutput)")
    }

    @Test func saysWhyAFolderCannotBeMadeAsTheSystemDoes() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try folder.write("file", "")
        let (code, capture) = Capture.run(["init", folder.path + "/file/site"])
        #expect(code == .failure)
        #expect(
            capture.standardError.contains(
                "cannot write the site: '\(folder.path)/file/site': Not a directory"),
            "\(capture.standardError)")
        let (newCode, new) = Capture.run([
            "new", "Fig", "--category", "X", "--content", folder.path + "/file/Content",
        ])
        #expect(newCode == .failure)
        #expect(
            new.standardError.contains(
                "\(folder.path)/file/Content: error: the content folder does not exist"),
            "\(new.standardError)")
        #expect(!capture.standardError.contains("Domain") && !new.standardError.contains("Domain"))
    }

    /// A name too long for a file name is refused as a long category is, before any write.
    @Test func newRefusesANameTooLongForAFile() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try folder.write("Content/apple.md", "---\nname: Apple\ncategory: Pome\n---\n")
        let content = folder.path + "/Content"
        let (code, capture) = Capture.run([
            "new", String(repeating: "a", count: 253), "--category", "X", "--content", content,
        ])
        #expect(code == .failure)
        #expect(capture.standardError.contains("makes a file name of 256 bytes, more than the 255"))
        let (fits, _) = Capture.run([
            "new", String(repeating: "a", count: 252), "--category", "X", "--content", content,
        ])
        #expect(fits == .success)
    }

    /// The hint's `cd` of a folder named with a leading dash is not read as an option.
    @Test func theHintOfAFolderStartingWithADashIsNoOption() {
        #expect(NewCommand.tryIt("-dash") == "  cd ./-dash && fruitsite serve")
        #expect(NewCommand.tryIt("site") == "  cd site && fruitsite serve")
    }

    /// A content folder that is not there is a typo or the wrong working folder: `new` says
    /// so, as `build` does, rather than make it.
    @Test func newNeedsTheContentFolder() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let (code, capture) = Capture.run([
            "new", "Fig", "--category", "X", "--content", folder.path + "/Contnet",
        ])
        #expect(code == .failure)
        #expect(capture.standardError.contains("Contnet: error: the content folder does not exist"))
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/Contnet"))
    }
}

/// `fruitsite check` reports links that lead nowhere at the line that writes them.
@Suite struct CheckLinksTests {
    @Test func reportsBrokenLinksWhereTheyAreWritten() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try Sample.copyInOneLanguage(to: folder.path)
        let apple = folder.path + "/Content/apple.md"
        try
            (try String(contentsOfFile: apple, encoding: .utf8)
            + "\nSee [lemons](../lemon/), [nothing](../nope/) and [a section](#nutrition-facts).\n"
            + "Again [nothing](../nope/), and [a typo](../le), [zest](fruit:lemon#zest).\n")
            .write(toFile: apple, atomically: true, encoding: .utf8)
        let layout = folder.path + "/Templates/layout.mustache"
        try (try String(contentsOfFile: layout, encoding: .utf8))
            .replacingOccurrences(
                of: "</footer>", with: "<a href=\"{{root}}about/\">About</a></footer>"
            )
            .write(toFile: layout, atomically: true, encoding: .utf8)
        // Links alone: not the warning that a site without a base URL has no sitemap.
        try folder.write("fruitsite.yml", "sitemap: false\n")
        let arguments = [
            "check", "--content", folder.path + "/Content", "--templates",
            folder.path + "/Templates", "--config", folder.path + "/fruitsite.yml",
        ]
        let (code, capture) = Capture.run(arguments)
        #expect(code == .success)
        let (strictCode, strict) = Capture.run(arguments + ["--strict"])
        #expect(strictCode == .failure)
        #expect(strict.standardOutput.isEmpty)
        let text = (capture.standardError + "--- with --strict:\n" + strict.standardError)
            .replacingOccurrences(of: folder.path, with: "<site>")
        let path = repositoryRoot + "/Tests/FruitsiteCLITests/Snapshots/check-links.txt"
        if ProcessInfo.processInfo.environment["FRUITSITE_RECORD"] == "1" {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            Issue.record("recorded check-links.txt")
        }
        #expect(text == (try String(contentsOfFile: path, encoding: .utf8)))
    }

    /// An entry saved with CRLF line endings or a byte order mark, as the parser accepts it,
    /// has its broken links placed as any other's.
    @Test func placesLinksInEntriesWithCRLFOrABOM() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try FileManager.default.copyItem(
            atPath: repositoryRoot + "/Templates", toPath: folder.path + "/Templates")
        let body = "See [the pear](../pear/).\n"
        let entries = [
            "apple": "---\r\nname: Apple\r\ncategory: Pome\r\n---\r\n"
                + body.replacingOccurrences(of: "\n", with: "\r\n"),
            "lemon": "\u{FEFF}---\nname: Lemon\ncategory: Citrus\n---\n" + body,
            "lime": "---\nname: Lime\ncategory: Citrus\n---\n" + body,
        ]
        for (slug, text) in entries {
            try folder.write("Content/\(slug).md", text)
        }
        let (code, capture) = Capture.run([
            "check", "--content", folder.path + "/Content", "--templates",
            folder.path + "/Templates",
        ])
        #expect(code == .success)
        for slug in entries.keys {
            #expect(
                capture.standardError.contains(
                    "\(folder.path)/Content/\(slug).md:5:16: warning: link '../pear/' leads nowhere"
                ),
                "\(capture.standardError)")
        }
    }

    /// A name is written into the body as text, whatever Markdown it holds: each entry
    /// builds and shows the name as typed.
    @Test func aNameInTheBodyIsTextNotMarkdown() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try folder.write("Content/potato.md", "---\nname: Potato\ncategory: Tubers\n---\n")
        let content = folder.path + "/Content"
        let names = [
            "Pomme [de terre](fruit:potato)", "Patate [douce](category:tubers)",
            "<script>alert(1)</script>", "Back`tick` fruit", "*Star* fruit", "# Hash",
            "--- Dashes", "Fig &amp; Co", "Snake_case_ **bold**", "![img](x.png) Pear",
            "Pipe | table", #"Back\slash"#, "Line<br>break", "Smart \"quotes\" -- too...",
        ]
        for name in names {
            let (code, capture) = Capture.run([
                "new", "--category", "Tubers", "--content", content, "--", name,
            ])
            #expect(code == .success, "\(name): \(capture.standardError)")
        }
        let (code, capture) = Capture.run([
            "build", "--content", content, "--templates", repositoryRoot + "/Templates",
            "--output", folder.path + "/Output", "--cache-dir", folder.path + "/.cache",
        ])
        #expect(code == .success)
        #expect(!capture.standardError.contains("error:"), "\(capture.standardError)")
        for name in names {
            let page = try folder.read("Output/fruits/\(Slug.make(from: name))/index.html")
            let escaped = name.replacingOccurrences(of: "&", with: "&amp;")
                .replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;")
                .replacingOccurrences(of: "\"", with: "&quot;")
            #expect(page.contains("<p>Write about \(escaped) here.</p>"), "\(name)")
        }
    }

    /// Two of its values of one facet with one URL slug, which a build refuses.
    @Test func refusesItsOwnValuesThatShareASlug() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try folder.write("Content/apple.md", "---\nname: Apple\ncategory: Pome\n---\n")
        let content = folder.path + "/Content"
        for (vitamins, message) in [
            ("K, k", "vitamins 'k' and 'K' both have the URL slug 'k'"),
            ("B6, b6, C", "vitamins 'b6' and 'B6' both have the URL slug 'b6'"),
        ] {
            let (code, capture) = Capture.run([
                "new", "Kale", "--category", "Greens", "--vitamins", vitamins, "--content", content,
            ])
            #expect(code == .failure, "\(vitamins)")
            #expect(
                capture.standardError.contains("Content/kale.md: error: " + message),
                "\(capture.standardError)")
            #expect(capture.standardError.contains("nothing was written"))
            #expect(!FileManager.default.fileExists(atPath: content + "/kale.md"))
        }
    }
}
