import Foundation
import TestSupport
import Testing

@testable import FruitsiteCore

/// Inputs a hostile or unlucky user can give: FIFOs, links, huge files, odd names and config
/// values. Each gives an error or warning naming the file, never a hang, a crash or a
/// published secret.
@Suite struct HostileInputTests {
    /// The sample theme and one entry in a temporary folder.
    struct Site {
        let folder: TemporaryDirectory
        var options = BuildOptions()

        init() throws {
            folder = try TemporaryDirectory()
            try FileManager.default.copyItem(
                atPath: repositoryRoot + "/Templates", toPath: folder.path + "/Templates")
            try folder.write("Content/apple.md", "---\nname: Apple\ncategory: Pome\n---\nCrisp.\n")
            options.contentDirectory = folder.path + "/Content"
            options.templatesDirectory = folder.path + "/Templates"
            options.outputDirectory = folder.path + "/Output"
            options.cacheDirectory = folder.path + "/.cache"
        }

        /// The build's diagnostics as printed, errors or warnings.
        func build() -> (succeeded: Bool, messages: [String]) {
            do {
                let rendering = try SiteBuilder(options: options).build()
                return (true, rendering.warnings.map(\.description))
            } catch {
                return (false, error.diagnostics.map(\.description))
            }
        }

        func makeFIFO(_ relativePath: String) {
            mkfifo(folder.path + "/" + relativePath, 0o644)
        }

        func link(_ relativePath: String, to target: String) throws {
            try FileManager.default.createSymbolicLink(
                atPath: folder.path + "/" + relativePath, withDestinationPath: target)
        }
    }

    // MARK: - FIFOs and links

    @Test(arguments: ["Content", "Templates", "Templates/assets", "config", "content link"])
    func aFIFOIsRefusedWithoutWaiting(_ place: String) throws {
        var site = try Site()
        defer { site.folder.remove() }
        let expected: String
        switch place {
        case "config":
            site.makeFIFO("fruitsite.yml")
            site.options.configPath = site.folder.path + "/fruitsite.yml"
            expected = "fruitsite.yml: error: cannot read the config file: it is a FIFO"
        case "content link":
            site.makeFIFO("Content/.pipe")
            try site.link("Content/pear.md", to: site.folder.path + "/Content/.pipe")
            expected = "Content/pear.md: error: cannot read the file: it is a FIFO"
        case "Templates":
            site.makeFIFO("Templates/pipe.mustache")
            expected = "Templates/pipe.mustache: error: cannot read the file: it is a FIFO"
        case "Content":
            site.makeFIFO("Content/pipe.md")
            expected = "Content/pipe.md: warning: skipped: it is not a regular file"
        default:
            site.makeFIFO(place + "/pipe.css")
            expected = place + "/pipe.css: error: cannot read the file: it is a FIFO"
        }
        let (succeeded, messages) = site.build()
        #expect(succeeded == (place == "Content"))
        #expect(messages.contains { $0.contains(expected) }, "\(messages)")
    }

    @Test func anAssetLinkPointingOutsideIsNotPublished() throws {
        let site = try Site()
        defer { site.folder.remove() }
        try site.folder.write("Secret/passwords.txt", "hunter2")
        try site.link(
            "Templates/assets/passwords.txt", to: site.folder.path + "/Secret/passwords.txt")
        try site.link("Templates/assets/shared", to: site.folder.path + "/Secret")
        try site.link("Templates/assets/loop", to: site.folder.path + "/Templates/assets")
        let (succeeded, messages) = site.build()
        #expect(succeeded)
        #expect(
            messages.filter {
                $0.contains("symbolic link not followed: it points outside the templates folder")
            }.count == 2, "\(messages)")
        #expect(!filesBelow(site.folder.path + "/Output").contains { $0.contains("passwords") })
    }

    /// A folder linked under another name inside the theme has both names; everything below
    /// `assets/` is copied, a `.mustache` file too, but not hidden files or editors' scratch.
    @Test func aThemesLinkedFolderHasBothNamesAndAssetsAreCopiedAsTheyAre() throws {
        let site = try Site()
        defer { site.folder.remove() }
        try site.folder.write("Templates/assets/img/a.txt", "A")
        try site.link("Templates/assets/alias", to: site.folder.path + "/Templates/assets/img")
        try site.link("Templates/alias", to: site.folder.path + "/Templates/partials")
        try site.folder.write("Templates/assets/card.mustache", "{{#open}}")
        for scratch in [".htaccess", "notes~", "data.tmp", "4913"] {
            try site.folder.write("Templates/assets/" + scratch, "x")
        }
        let (succeeded, messages) = site.build()
        #expect(succeeded, "\(messages)")
        let assets = Set(filesBelow(site.folder.path + "/Output/assets"))
        #expect(assets.isSuperset(of: ["img/a.txt", "alias/a.txt", "card.mustache"]), "\(assets)")
        #expect(assets.isDisjoint(with: [".htaccess", "notes~", "data.tmp", "4913"]))
    }

    /// A template that is not UTF-8 is one error, at its first bad byte: the templates that
    /// include it are not told it is unknown.
    @Test func aTemplateThatIsNotUTF8IsOneErrorAtItsByte() throws {
        let site = try Site()
        defer { site.folder.remove() }
        try Data("ok\ncaf\u{E9}".utf8.dropLast(2) + [0xE9, 0x0A]).write(
            to: URL(fileURLWithPath: site.folder.path + "/Templates/partials/latin.mustache"))
        let path = site.folder.path + "/Templates/404.mustache"
        try (String(contentsOfFile: path, encoding: .utf8) + "{{> partials/latin}}\n").write(
            toFile: path, atomically: true, encoding: .utf8)
        let (succeeded, messages) = site.build()
        #expect(!succeeded)
        #expect(messages.count == 1, "\(messages)")
        #expect(
            messages.first?.contains(
                "partials/latin.mustache:2:4: error: the template is not valid UTF-8")
                == true, "\(messages)")
    }

    @Test func loopsAndDanglingLinksAreToldApart() throws {
        let site = try Site()
        defer { site.folder.remove() }
        try site.link("Content/dangling.md", to: site.folder.path + "/Content/missing.md")
        try site.link("Content/a.md", to: site.folder.path + "/Content/b.md")
        try site.link("Content/b.md", to: site.folder.path + "/Content/a.md")
        let (succeeded, messages) = site.build()
        #expect(succeeded)
        #expect(
            messages.contains {
                $0.contains(
                    "dangling.md: warning: symbolic link not followed: it points to nothing")
            })
        #expect(
            messages.contains {
                $0.contains("a.md: warning: symbolic link not followed: it is part of a loop")
            })
    }

    // APFS and HFS+ refuse such names outright.
    #if os(Linux)
        @Test func aFileNameThatIsNotUTF8IsNamedAsSuch() throws {
            let site = try Site()
            defer { site.folder.remove() }
            let path = site.folder.path + "/Content/bad\u{FFFD}.md"
            // The bytes of "bad", 0xFF, ".md": not UTF-8.
            var bytes = Array((site.folder.path + "/Content/bad").utf8) + [0xFF] + Array(".md".utf8)
            bytes.append(0)
            let descriptor = bytes.withUnsafeBufferPointer {
                $0.withMemoryRebound(to: CChar.self) {
                    open($0.baseAddress!, O_CREAT | O_WRONLY, 0o644)
                }
            }
            #expect(descriptor >= 0)
            close(descriptor)
            let (succeeded, messages) = site.build()
            #expect(!succeeded)
            #expect(messages.count == 1, "\(messages)")
            #expect(
                messages.first?.hasPrefix(path + ": error: the name is not valid UTF-8") == true,
                "\(messages)")
        }
    #endif

    // MARK: - Limits

    @Test func anEntryLargerThanTheLimitIsAnErrorNamingIt() throws {
        var site = try Site()
        defer { site.folder.remove() }
        // 20 GB, sparse: nothing is allocated on disk, and nothing may be in memory.
        let path = site.folder.path + "/Content/huge.md"
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        #expect(truncate(path, 20 << 30) == 0)
        var (succeeded, messages) = site.build()
        #expect(!succeeded)
        #expect(
            messages == [
                "\(path): error: the entry is 20480 MB, more than the limit of 8 MB\n"
                    + "  hint: raise 'maxEntrySize' in fruitsite.yml if the entry is meant to be this big"
            ], "\(messages)")

        // A raised limit lets a big entry through.
        #expect(truncate(path, 0) == 0)
        let body = String(repeating: "Juicy. ", count: 1_400_000)  // 9.8 MB
        try site.folder.write("Content/huge.md", "---\nname: Huge\ncategory: Big\n---\n" + body)
        (succeeded, _) = site.build()
        #expect(!succeeded)
        try site.folder.write("fruitsite.yml", "maxEntrySize: 16MB\n")
        site.options.configPath = site.folder.path + "/fruitsite.yml"
        (succeeded, messages) = site.build()
        #expect(succeeded, "\(messages)")
    }

    @Test func aPageThatGrowsPastTheLimitStopsWithAnErrorNamingItsTemplate() throws {
        var site = try Site()
        defer { site.folder.remove() }
        for name in ["banana", "cherry", "date", "fig", "grape", "kiwi", "lime"] {
            try site.folder.write(
                "Content/\(name).md", "---\nname: \(name.capitalized)\ncategory: Pome\n---\n")
        }
        // Three loops over every fruit, nested: 8 × 8 × 8 cards of 1 KB, about 512 KB.
        try site.folder.write(
            "Templates/index.mustache",
            "{{#fruits}}{{#fruits}}{{#fruits}}\(String(repeating: "x", count: 1_000)){{/fruits}}"
                + "{{/fruits}}{{/fruits}}")
        try site.folder.write("fruitsite.yml", "maxPageSize: 100KB\n")
        site.options.configPath = site.folder.path + "/fruitsite.yml"
        var (succeeded, messages) = site.build()
        #expect(!succeeded)
        #expect(
            messages == [
                "\(site.folder.path)/Templates/index.mustache: error: the rendered output grew past "
                    + "102400 bytes\n  hint: raise 'maxPageSize' in fruitsite.yml if pages are meant "
                    + "to be this big"
            ], "\(messages)")
        #expect(!FileManager.default.fileExists(atPath: site.options.outputDirectory))
        try site.folder.write("fruitsite.yml", "maxPageSize: 1MB\n")
        (succeeded, messages) = site.build()
        #expect(succeeded, "\(messages)")
    }

    /// A page grows where the layout's blocks or a partial are being rendered: the error names
    /// the page's own template, once for all its pages, never a block as if it were a file.
    @Test func pagesPastTheLimitAreNamedByTheirTemplates() throws {
        var site = try Site()
        defer { site.folder.remove() }
        try site.folder.write("fruitsite.yml", "maxPageSize: 2KB\n")
        site.options.configPath = site.folder.path + "/fruitsite.yml"
        let (succeeded, messages) = site.build()
        #expect(!succeeded)
        let named = messages.compactMap { $0.firstMatch(of: /Templates\/(.+?)\.mustache: error/) }
        #expect(
            named.map { String($0.1) }.sorted() == ["categories", "category", "fruit", "index"],
            "\(messages)")
    }

    // MARK: - Config

    @Test(arguments: [
        (
            "baseURL: \"https://example.org/\\nDisallow: /\"",
            "fruitsite.yml:1:10: error: 'baseURL' must not contain spaces, line breaks or control characters"
        ),
        (
            "baseURL: https://example.org/?a=1",
            "fruitsite.yml:1:10: error: 'baseURL' must not have a query ('?…')"
        ),
        (
            "baseURL: https://example.org/#top",
            "fruitsite.yml:1:10: error: 'baseURL' must not have a fragment ('#…')"
        ),
        (
            "baseURL: ftp://example.org/",
            "fruitsite.yml:1:10: error: 'baseURL' must be an absolute http(s) URL"
        ),
        (
            "baseURL: https:///fruits/",
            "fruitsite.yml:1:10: error: 'baseURL' must name a host, without a user name"
        ),
        ("title: A\ntitle: B", "fruitsite.yml:2:1: error: duplicate key 'title'"),
        (
            "search: {index: single, index: sharded}",
            "fruitsite.yml:1:25: error: duplicate key 'index'"
        ),
        (
            "baseURL: https://example.org//fruits/",
            "fruitsite.yml:1:10: error: 'baseURL' must have a path without empty, '.' or '..' parts"
        ),
        (
            "baseURL: https://example.org/a/..",
            "fruitsite.yml:1:10: error: 'baseURL' must have a path without empty, '.' or '..' parts"
        ),
        (
            "baseURL: https://x.org:99999/",
            "fruitsite.yml:1:10: error: 'baseURL' must have a port from 1 to 65535"
        ),
        ("baseURL: https://x.org/%zz/", "fruitsite.yml:1:10: error: 'baseURL' must be escaped"),
        (
            #"baseURL: 'https://x.org/"><script>x</script>/'"#,
            "fruitsite.yml:1:10: error: 'baseURL' must be escaped"
        ),
        ("facets: [search]", "fruitsite.yml:1:10: error: 'search' cannot be a facet"),
        (
            "maxEntrySize: lots",
            "fruitsite.yml:1:15: error: 'maxEntrySize' must be a size such as 4MB"
        ),
        (
            "maxPageSize: 0",
            "fruitsite.yml:1:14: error: 'maxPageSize' must be a size such as 4MB"
        ),
        (
            "pageSize: -1",
            "fruitsite.yml:1:11: error: 'pageSize' must be a whole number from 0 to 1000000"
        ),
        (
            "pageSize: ten",
            "fruitsite.yml:1:11: error: 'pageSize' must be a whole number from 0 to 1000000"
        ),
        (
            "title: LONG",
            "fruitsite.yml:1:8: error: 'title' is 5000 bytes long, more than the limit of 4096"
        ),
        (
            "---\ntitle: First\nlanguage: fr\n---\ntitle: Second",
            "fruitsite.yml:4:1: error: invalid YAML: a second YAML document starts here"
        ),
        (
            "baseURL: https://example.com/shop/%2e%2E/fruit/",
            "fruitsite.yml:1:10: error: 'baseURL' must have a path without empty, '.' or '..' parts"
        ),
        (
            "language: english please",
            "fruitsite.yml:1:11: error: 'language' must be a language tag"
        ),
        ("language: x", "fruitsite.yml:1:11: error: 'language' must be a language tag"),
        ("language: e-GB", "fruitsite.yml:1:11: error: 'language' must be a language tag"),
        (
            "baseURL: https://-bad-.org/",
            "fruitsite.yml:1:10: error: 'baseURL' must have a host of letters, digits and hyphens"
        ),
        (
            "baseURL: https://shop..example.org:8080/",
            "fruitsite.yml:1:10: error: 'baseURL' must have a host of letters, digits and hyphens"
        ),
        (
            "baseURL: https://fruit_shop.example/",
            "fruitsite.yml:1:10: error: 'baseURL' must have a host of letters, digits and hyphens"
        ),
        (
            "baseURL: https://[not-an-address]/",
            "fruitsite.yml:1:10: error: 'baseURL' must have an IPv6 address in brackets"
        ),
        // Hosts IDNA cannot write in ASCII, which the sitemap and links could not name.
        (
            "baseURL: https://٣.example/",
            "fruitsite.yml:1:10: error: 'baseURL' must have a host IDNA writes in ASCII"
        ),
        (
            "baseURL: https://[::１]/",
            "fruitsite.yml:1:10: error: 'baseURL' must have a host IDNA writes in ASCII"
        ),
        (
            "description: \"a \\x0B tab\"",
            "fruitsite.yml:1:14: error: the value holds U+000B, a character HTML pages cannot hold"
        ),
        (
            "title: First\n...\ntitle: Second",
            "fruitsite.yml:3:1: error: invalid YAML: a second YAML document starts here"
        ),
        (
            "title: x\n\u{0}",
            "fruitsite.yml:2:1: error: invalid YAML: control characters are not allowed"
        ),
        ("pageSize:", "fruitsite.yml:1:10: error: 'pageSize' must be a whole number, not null"),
        (
            "maxEntrySize: [1]",
            "fruitsite.yml:1:15: error: 'maxEntrySize' must be a size such as 4MB, not a list"
        ),
        ("feed: 20", "fruitsite.yml:1:7: error: 'feed' must be a map, not a number"),
        ("sitemap: no way", "fruitsite.yml:1:10: error: 'sitemap' must be true or false"),
        ("search: true", "fruitsite.yml:1:9: error: 'search' must be a map, not a boolean"),
        (
            "baseURL: https://example.org/x%2Fy/",
            "fruitsite.yml:1:10: error: 'baseURL' must not escape a '/' in its path ('%2F')"
        ),
    ])
    func aBadConfigValueIsAnErrorAtItsLine(_ text: String, _ expected: String) throws {
        // "LONG" stands for a 5,000-byte value, which would flood the test's name.
        let text = text.replacingOccurrences(
            of: "LONG", with: String(repeating: "x", count: 5_000))
        #expect(throws: BuildFailure.self) { try SiteConfig(yaml: text, path: "fruitsite.yml") }
        do {
            _ = try SiteConfig(yaml: text, path: "fruitsite.yml")
        } catch {
            #expect(
                error.diagnostics.first.map { "\($0)".hasPrefix(expected) } == true,
                "\(error.diagnostics)")
        }
    }

    @Test func goodConfigValuesAreAccepted() throws {
        let config = try SiteConfig(
            yaml: "baseURL: HTTPS://example.org:8080/fruits\nmaxEntrySize: 512KB\npageSize: 0\n",
            path: "fruitsite.yml")
        #expect(config.baseURL == "https://example.org:8080/fruits/")
        #expect(config.maximumEntrySize == 512 << 10)
        #expect(config.pageSize == 0)
        #expect(SiteConfig().pageSize == 100)
        for tag in ["en", "pt-BR", "zh-Hant-TW", "x-klingon", "i-navajo", "gsw"] {
            let tagged = try SiteConfig(yaml: "language: \(tag)\n", path: "fruitsite.yml")
            #expect(tagged.language == tag)
        }
        let directions = [
            "en": "ltr", "ar": "rtl", "he-IL": "rtl", "FA": "rtl", "az-Arab": "rtl",
            "az-Latn": "ltr", "sd-Deva-IN": "ltr", "ur-Arab-PK": "rtl", "yi": "rtl",
            "x-klingon": "ltr",
        ]
        for (tag, direction) in directions {
            let tagged = try SiteConfig(yaml: "language: \(tag)\n", path: "fruitsite.yml")
            #expect(tagged.direction == direction, "\(tag)")
        }
        for url in [
            "https://[::1]:8080/a%20b/", "https://[::1]/", "http://x.org/caf%C3%A9/",
            "https://xn--bcher-kva.example/", "https://bücher.example/", "http://localhost:8080/",
            "http://192.168.0.1/", "https://a-b.c-d.example/", "https://[2001:db8::1]:8443/",
        ] {
            #expect(SiteConfig.baseURLProblem(url) == nil, "\(url)")
        }
        // A host or path in other scripts is written one way, as a URL writes it.
        let unicode = try SiteConfig(
            yaml: "baseURL: https://bücher.example/früchte\n", path: "fruitsite.yml")
        #expect(unicode.baseURL == "https://xn--bcher-kva.example/fr%C3%BCchte/")
        #expect(unicode.basePath == "/fr%C3%BCchte/")
        // Escapes written already stay as they are; a port stays after the host, unless it is
        // the scheme's own; the scheme and host are in lower case.
        let spellings = [
            ("https://ex.org/ü/a%20b/%41", "https://ex.org/%C3%BC/a%20b/%41"),
            ("http://bücher.example:8080/x", "http://xn--bcher-kva.example:8080/x"),
            ("HTTP://Example.ORG:80/Fruits/", "http://example.org/Fruits/"),
            ("https://x.org:443/", "https://x.org/"), ("https://x.org:0443", "https://x.org"),
            ("http://x.org:443/", "http://x.org:443/"),
            ("https://x.org:08080/", "https://x.org:8080/"),
            ("https://[::1]:443/", "https://[::1]/"), ("https://[::1]/", "https://[::1]/"),
            ("https://BÜCHER.example/", "https://xn--bcher-kva.example/"),
        ]
        for (written, canonical) in spellings {
            #expect(SiteConfig.canonical(written) == canonical, "\(written)")
        }
    }

    @Test func aConfigThatIsAFolderIsAnError() throws {
        let site = try Site()
        defer { site.folder.remove() }
        try FileManager.default.createDirectory(
            atPath: site.folder.path + "/fruitsite.yml", withIntermediateDirectories: true)
        // The config is looked for as `fruitsite.yml` where the build runs. That relative
        // name is read inside the site's folder, as changing the working directory would
        // move it under every other test running at the same time.
        var disk = FileSystem.local
        let folder = site.folder.path
        disk.read = { path, limit in
            try FileSystem.local.read(path.hasPrefix("/") ? path : folder + "/" + path, limit)
        }
        #expect(
            SiteBuilder(options: site.options, fileSystem: disk).loadConfig().problems.map(
                \.description) == [
                    "fruitsite.yml: error: cannot read the config file: it is a folder, not a regular file"
                ])
    }

    // MARK: - The cache folder

    @Test(arguments: ["Templates/assets/cache", "Content/.cache", "Output/cache", "", "file"])
    func aCacheFolderThatWouldBePublishedOrCannotBeIsRefused(_ place: String) throws {
        var site = try Site()
        defer { site.folder.remove() }
        try site.folder.write("file", "not a folder")
        site.options.cacheDirectory = place.isEmpty ? "" : site.folder.path + "/" + place
        let (succeeded, messages) = site.build()
        #expect(!succeeded)
        let expected =
            switch place {
            case "": "the cache folder's name is empty"
            case "file": "the cache path exists and is not a folder"
            case "Output/cache": "the cache folder must not be inside the output folder"
            case "Content/.cache": "the cache folder must not be inside the content folder"
            default: "the cache folder must not be inside the templates folder"
            }
        #expect(messages.count == 1 && messages[0].contains("error: " + expected), "\(messages)")
        #expect(!FileManager.default.fileExists(atPath: site.folder.path + "/Output"))
    }

    // MARK: - Determinism

    // The build id is an ELF note; elsewhere the identity is a hash of the whole file.
    #if os(Linux)
        @Test func twoCopiesOfOneBinaryHaveOneIdentity() throws {
            let folder = try TemporaryDirectory()
            defer { folder.remove() }
            let executable = try #require(Bundle.main.executablePath)
            let copy = folder.path + "/copy"
            try FileManager.default.copyItem(atPath: executable, toPath: copy)
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSince1970: 0)], ofItemAtPath: copy)
            let id = try #require(Generator.buildID(of: executable))
            #expect(id.count >= 16)
            #expect(Generator.buildID(of: copy) == id)
            #expect(Generator.identity == "\(Generator.version) build-\(id)")
            // Not an ELF file: no id.
            #expect(Generator.buildID(of: repositoryRoot + "/README.md") == nil)
        }
    #endif
}
