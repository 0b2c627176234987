import Foundation
import TestSupport
import Testing

@testable import FruitsiteCore

/// GIFs and SVGs are published as they are, at their own size: a GIF without its comments and
/// metadata, an SVG byte for byte once it is found free of script.
@Suite struct PicturePassThroughTests {
    /// A GIF block by block: an animation of two 1 x 1 frames that loops, as browsers and
    /// libvips read it.
    enum GIF {
        static let head: [UInt8] =
            Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0] + [0, 0, 0, 255, 255, 255]
        static let loop: [UInt8] = [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1, 0, 0, 0]
        static let comment: [UInt8] = [0x21, 0xFE, 5] + Array("hello".utf8) + [0]
        static let xmp: [UInt8] =
            [0x21, 0xFF, 11] + Array("XMP DataXMP".utf8) + [9] + Array("<x:xmpmeta".utf8.prefix(9))
            + [0]
        /// A frame of colour `index` (0 or 1), shown for a tenth of a second.
        static func frame(_ index: UInt8) -> [UInt8] {
            [0x21, 0xF9, 4, 4, 10, 0, 0, 0] + [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0]
                + [2, 2, index == 0 ? 0x44 : 0x4C, 0x01, 0]
        }
        static let trailer: [UInt8] = [0x3B]

        static let published = head + loop + frame(0) + frame(1) + trailer
        static let withMetadata = head + loop + comment + frame(0) + xmp + frame(1) + trailer
    }

    @Test func aGIFLosesItsCommentsAndMetadataAlone() throws {
        #expect(GIFContainer.removingMetadata(from: GIF.withMetadata) == GIF.published)
        #expect(GIFContainer.removingMetadata(from: GIF.published) == GIF.published)
        // Browsers show a GIF that lost its trailer; one cut inside a block is damaged.
        #expect(GIFContainer.removingMetadata(from: GIF.withMetadata.dropLast()) == GIF.published)
        #expect(GIFContainer.removingMetadata(from: Array(GIF.withMetadata.dropLast(4))) == nil)
        #expect(GIFContainer.removingMetadata(from: Array("GIF89a".utf8)) == nil)
    }

    @Test func anAnimatedGIFIsOneVariantOfItself() throws {
        let picture = try PictureEncoder().encode(Data(GIF.withMetadata))
        #expect(picture.header == PictureHeader(format: .gif, width: 1, height: 1, hasAlpha: false))
        #expect(picture.variants.count == 1)
        #expect(picture.variants.first?.format == .gif)
        #expect(picture.variants.first.map { [UInt8]($0.bytes) } == GIF.published)
        #expect(picture.placeholder.color == "#000000")
    }

    /// A site whose one fruit shows `picture`, written as `name`.
    static func site(
        _ picture: [UInt8], named name: String, config: String = "baseURL: https://example.org/\n"
    ) throws -> (TemporaryDirectory, BuildOptions) {
        var (folder, options) = try temporarySite(
            config: config,
            entries: [("kiwi", "name: Kiwi\ncategory: Berries\nimage: {src: \(name), alt: A kiwi}")]
        )
        try Data(picture).write(to: URL(fileURLWithPath: "\(folder.path)/Content/\(name)"))
        options.cacheDirectory = folder.path + "/.cache"
        options.pictureCacheDirectory = nil
        return (folder, options)
    }

    static func published(in folder: TemporaryDirectory) throws -> [String: [UInt8]] {
        let images = folder.path + "/Output/images"
        var files: [String: [UInt8]] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: images) {
            files[name] = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "\(images)/\(name)")))
        }
        return files
    }

    /// A GIF is published once, without its metadata, and shown without `<source>`s; no
    /// warning says it is narrower than the widest variant.
    @Test func aBuildPublishesAGIFAsItIs() throws {
        let (folder, options) = try Self.site(GIF.withMetadata, named: "kiwi.gif")
        let rendering = try SiteBuilder(options: options).build()
        #expect(rendering.warnings.isEmpty)
        let files = try Self.published(in: folder)
        #expect(files.count == 1)
        #expect(files.keys.first?.hasPrefix("kiwi-1.") == true)
        #expect(files.keys.first?.hasSuffix(".gif") == true)
        #expect(files.values.first == GIF.published)
        let page = try String(
            contentsOfFile: folder.path + "/Output/fruits/kiwi/index.html", encoding: .utf8)
        #expect(!page.contains("<source"))
        #expect(page.contains(#"src="../../images/kiwi-1."#))
        #expect(page.contains(#"<meta property="og:image:type" content="image/gif">"#))
    }

    static let drawing = Array(
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 240 160">
          <circle cx="120" cy="80" r="60" fill="#7a3"/>
        </svg>

        """.utf8)

    /// An SVG is published byte for byte at its viewBox's size, with no placeholder and no
    /// link preview.
    @Test func aBuildPublishesAnSVGAsItIs() throws {
        let (folder, options) = try Self.site(Self.drawing, named: "kiwi.svg")
        let rendering = try SiteBuilder(options: options).build()
        #expect(rendering.warnings.isEmpty)
        let files = try Self.published(in: folder)
        #expect(files.count == 1)
        #expect(files.keys.first?.hasPrefix("kiwi-240.") == true)
        #expect(files.values.first == Self.drawing)
        let page = try String(
            contentsOfFile: folder.path + "/Output/fruits/kiwi/index.html", encoding: .utf8)
        #expect(page.contains(#"width="240" height="160""#))
        #expect(page.contains("background: transparent\""))
        #expect(!page.contains("og:image"))
        #expect(page.contains(#"<meta name="twitter:card" content="summary">"#))
    }

    /// Script in an SVG is an error at its place in the SVG, and nothing is written, unless
    /// the config's rawHTML lets it through; turning rawHTML off reads the entry again.
    @Test func scriptInAnSVGIsAnErrorUnlessRawHTMLIsOn() throws {
        let scripted = Array(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\">\n  <rect onclick=\"alert(1)\"/>\n</svg>\n"
                .utf8)
        let (folder, options) = try Self.site(
            scripted, named: "kiwi.svg", config: "rawHTML: true\n")
        try SiteBuilder(options: options).build()
        #expect(try Self.published(in: folder).values.first == scripted)

        try "rawHTML: false\n".write(toFile: options.configPath!, atomically: true, encoding: .utf8)
        let failure = #expect(throws: BuildFailure.self) {
            try SiteBuilder(options: options).build()
        }
        let error = try #require(failure?.diagnostics.first)
        #expect(failure?.diagnostics.count == 1)
        #expect(error.location.path.hasSuffix("Content/kiwi.svg"))
        #expect((error.location.line, error.location.column) == (2, 9))
        #expect(error.message.contains("rawHTML"))
        // The site built before is as it was.
        #expect(try Self.published(in: folder).values.first == scripted)
    }
}
