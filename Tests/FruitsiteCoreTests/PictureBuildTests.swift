import CVips
import Foundation
import TestSupport
import Testing

@testable import FruitsiteCore

/// The picture stage of a build: what it writes, what it takes from the cache folder, what it
/// leaves alone and what it removes.
@Suite struct PictureBuildTests {
    /// A site of two fruits, one with a photo, built with a cache folder and small widths.
    struct PictureSite {
        let folder: TemporaryDirectory
        var options: BuildOptions

        init(config: String = "images: {widths: [64, 128]}\n") throws {
            let site = try temporarySite(
                config: config,
                entries: [
                    (
                        "apple",
                        "name: Apple\ncategory: Core\nimage: {src: apple.jpg, alt: A red apple}"
                    ),
                    ("pear", "name: Pear\ncategory: Core"),
                ])
            (folder, options) = site
            options.cacheDirectory = folder.path + "/.cache"
            // Its own, not one the environment shares.
            options.pictureCacheDirectory = nil
            try setPhoto(seed: 1)
        }

        func setPhoto(seed: UInt64) throws {
            let photo = try TestPictures.photo(
                width: 200, height: 150, as: FRUITSITE_VIPS_JPEG, seed: seed)
            try photo.write(to: URL(fileURLWithPath: folder.path + "/Content/apple.jpg"))
        }

        @discardableResult
        func build() throws -> SiteBuilder.Rendering {
            try SiteBuilder(options: options).build()
        }

        /// The output's pictures, by path.
        func pictures(in output: String = "Output") throws -> [String: Data] {
            let folder = "\(self.folder.path)/\(output)/images"
            var files: [String: Data] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
                files["images/" + name] = try Data(
                    contentsOf: URL(fileURLWithPath: "\(folder)/\(name)"))
            }
            return files
        }

        func page(_ path: String) throws -> String {
            try String(contentsOfFile: "\(folder.path)/Output/\(path)", encoding: .utf8)
        }

        /// A fruit's record in the search index.
        func record(_ slug: String) throws -> [String: Any] {
            let output = folder.path + "/Output"
            let name = try FileManager.default.contentsOfDirectory(atPath: output)
                .first { $0.hasPrefix("search-index.") }!
            let index = try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: "\(output)/\(name)")))
            let fruits = (index as! [String: Any])["fruits"] as! [[String: Any]]
            return try #require(fruits.first { $0["slug"] as? String == slug })
        }

        /// The apple's thumbnail as the search index holds it: its fallback and its sources.
        func thumbnail() throws -> (src: String, sources: [String]) {
            let image = try #require(try record("apple")["image"] as? [String: Any])
            let sources = try #require(image["sources"] as? [[String: String]])
            return (image["src"] as! String, sources.map { $0["src"]! })
        }

        /// The output paths a page names in its `src` and `srcset` attributes, from its root.
        func picturesNamed(by path: String, root: String) throws -> Set<String> {
            let html = try page(path)
            let pattern = try Regex(#"\#(root)(images/[^" ,]+)"#)
            return Set(
                html.matches(of: pattern).map { String(html[$0.range].dropFirst(root.count)) })
        }
    }

    /// Every variant is written, upright in size and format as planned; the fruit's page
    /// names exactly those files, and its category's card each format's thumbnail; the fruit
    /// without a picture shows none.
    @Test func aBuildWritesEveryVariantThePagesName() throws {
        let site = try PictureSite()
        try site.build()
        let pictures = try site.pictures()
        // Two widths in AVIF, WebP and the source's JPEG.
        #expect(pictures.count == 6)
        #expect(
            Set(pictures.keys.map { ($0 as NSString).pathExtension }) == ["avif", "webp", "jpg"])
        #expect(
            try site.picturesNamed(by: "fruits/apple/index.html", root: "../../")
                == Set(pictures.keys))
        #expect(
            try site.picturesNamed(by: "categories/core/index.html", root: "../../")
                == Set(pictures.keys.filter { $0.contains("-128.") }))
        #expect(try !site.page("fruits/pear/index.html").contains("<picture"))
        for (path, bytes) in pictures {
            let read = try TestPictures.readBack(bytes)
            #expect(read.width == (path.contains("-64.") ? 64 : 128), "\(path)")
            #expect(!read.fields.contains { $0.hasPrefix("exif") || $0 == "xmp-data" }, "\(path)")
        }
    }

    /// A build with nothing changed writes and encodes nothing; a clean build into another
    /// folder takes every variant from the cache folder, as a restored CI cache would: a
    /// variant the cache holds with other bytes is published with those bytes.
    @Test func variantsComeFromTheCacheFolder() throws {
        let site = try PictureSite()
        #expect(try site.build().notes.contains("pictures: encoded 1, taken from the cache 0"))
        let again = try site.build()
        #expect(again.rendered == 0)
        #expect(again.written?.written == 0)

        let cache = site.options.cacheDirectory! + "/" + BuildOptions.pictureCacheFolder
        let cached = try FileManager.default.contentsOfDirectory(atPath: cache).sorted()
        #expect(cached.count == 6)
        let marked = Data("kept by the cache".utf8)
        for name in cached where name.hasSuffix(".webp") {
            try marked.write(to: URL(fileURLWithPath: "\(cache)/\(name)"))
        }
        var elsewhere = site.options
        elsewhere.outputDirectory = site.folder.path + "/Other"
        let other = try SiteBuilder(options: elsewhere).build()
        #expect(other.notes.contains("pictures: encoded 0, taken from the cache 1"))
        let published = try site.pictures(in: "Other")
        #expect(published.count == 6)
        for (path, bytes) in published {
            #expect((bytes == marked) == path.hasSuffix(".webp"), "\(path)")
        }
    }

    /// A new photo gets new names, the old ones are removed, and the pages that show it name
    /// the new ones; a picture no entry names any more leaves the output.
    @Test func aNewPhotoReplacesItsVariantsAndAnUnusedOneIsRemoved() throws {
        let site = try PictureSite()
        try site.build()
        let before = Set(try site.pictures().keys)
        try site.setPhoto(seed: 2)
        // The entry's file is written again, which the scan sees.
        let entry = site.folder.path + "/Content/apple.md"
        try (try String(contentsOfFile: entry, encoding: .utf8) + "More.\n").write(
            toFile: entry, atomically: true, encoding: .utf8)
        try site.build()
        let after = Set(try site.pictures().keys)
        #expect(after.count == 6)
        #expect(after.isDisjoint(with: before))
        #expect(try site.picturesNamed(by: "fruits/apple/index.html", root: "../../") == after)

        try "---\nname: Apple\ncategory: Core\n---\nNo photo.\n".write(
            toFile: entry, atomically: true, encoding: .utf8)
        try site.build()
        let folder = site.folder.path + "/Output/images"
        let left = FileManager.default.fileExists(atPath: folder) ? try site.pictures() : [:]
        #expect(left.isEmpty)
    }

    /// Two clean builds without a cache encode the same bytes under the same names.
    @Test func cleanBuildsPublishTheSameBytes() throws {
        let site = try PictureSite()
        var options = site.options
        options.cacheDirectory = nil
        try SiteBuilder(options: options).build()
        let first = try site.pictures()
        options.outputDirectory = site.folder.path + "/Again"
        try SiteBuilder(options: options).build()
        #expect(try site.pictures(in: "Again") == first)
    }

    /// A quality changed in the config renames only that format's variants.
    @Test func aQualityRenamesItsFormatAlone() throws {
        var site = try PictureSite()
        try site.build()
        let before = Set(try site.pictures().keys)
        try "images: {widths: [64, 128], quality: {webp: 60}}\n".write(
            toFile: site.options.configPath!, atomically: true, encoding: .utf8)
        site.options.configPath = site.options.configPath
        let rebuilt = try site.build()
        #expect(rebuilt.notes.contains { $0.contains("other images settings") })
        let after = Set(try site.pictures().keys)
        #expect(try site.thumbnail().sources.contains { after.subtracting(before).contains($0) })
        #expect(after.subtracting(before).allSatisfy { $0.hasSuffix(".webp") })
        #expect(after.subtracting(before).count == 2)
        #expect(before.subtracting(after).allSatisfy { $0.hasSuffix(".webp") })
    }

    /// The search index gives each fruit with a picture the thumbnail the index page's card
    /// shows, every file of it published, and gives none to a fruit without.
    @Test func theSearchIndexHoldsTheCardsThumbnail() throws {
        let site = try PictureSite()
        try site.build()
        let thumbnail = try site.thumbnail()
        let pictures = try site.pictures()
        #expect(thumbnail.src.hasSuffix(".jpg") && pictures[thumbnail.src] != nil)
        #expect(thumbnail.sources.count == 2)
        #expect(thumbnail.sources.allSatisfy { pictures[$0] != nil && $0.contains("-128.") })
        #expect(
            try site.picturesNamed(by: "index.html", root: "")
                == Set([thumbnail.src] + thumbnail.sources))
        #expect(try site.page("index.html").contains(#"width="128" height="96""#))
        #expect(try site.record("pear")["image"] == nil)
    }

    /// `check` writes nothing and encodes nothing: no variant reaches the cache folder.
    @Test func checkPublishesNothing() throws {
        let site = try PictureSite()
        let rendering = try SiteBuilder(options: site.options).check()
        #expect(rendering.warnings.allSatisfy { !$0.message.contains("images/") })
        let cache = site.options.cacheDirectory! + "/" + BuildOptions.pictureCacheFolder
        #expect(!FileManager.default.fileExists(atPath: cache))
        #expect(!FileManager.default.fileExists(atPath: site.folder.path + "/Output"))
    }

    /// A picture narrower than the widest variant is published at its own width, with a
    /// warning that names it; one wide enough has none.
    @Test func aNarrowPictureIsReported() throws {
        let site = try PictureSite(config: "images: {widths: [64, 400]}\n")
        let rendering = try site.build()
        let warnings = rendering.warnings.filter { $0.location.path.hasSuffix("apple.jpg") }
        #expect(warnings.count == 1)
        #expect(warnings.first?.message.contains("200 pixels wide") == true)
        #expect(
            Set(try site.pictures().keys.map { $0.contains("-200.") || $0.contains("-64.") }) == [
                true
            ])
        let wide = try PictureSite()
        #expect(try wide.build().warnings.allSatisfy { !$0.location.path.hasSuffix("apple.jpg") })
    }

    /// A link preview needs an absolute address: without a base URL a page names no
    /// `og:image`; a decorative picture's has no `og:image:alt`.
    @Test func linkPreviewsNameThePictureOnlyWithABaseURL() throws {
        let site = try PictureSite()
        try site.build()
        let page = try site.page("fruits/apple/index.html")
        #expect(!page.contains("og:image"))
        #expect(page.contains(#"<meta name="twitter:card" content="summary_large_image">"#))

        let based = try PictureSite(
            config: "baseURL: https://example.org/\nimages: {widths: [64, 128]}\n")
        let entry = based.folder.path + "/Content/apple.md"
        try (try String(contentsOfFile: entry, encoding: .utf8))
            .replacingOccurrences(of: "alt: A red apple", with: "alt: ''")
            .write(toFile: entry, atomically: true, encoding: .utf8)
        try based.build()
        let decorative = try based.page("fruits/apple/index.html")
        #expect(
            decorative.contains(
                #"<meta property="og:image" content="https://example.org/images/apple-128."#))
        #expect(!decorative.contains("og:image:alt"))
        #expect(decorative.contains(#"alt="""#))
    }
}
