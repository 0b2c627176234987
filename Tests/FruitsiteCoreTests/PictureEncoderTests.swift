import CVips
import Foundation
import Testing

@testable import FruitsiteCore

/// The picture encoder on sources made with libvips: formats read and written, sizes,
/// orientation, colour, metadata, limits, determinism and placeholders.
@Suite struct PictureEncoderTests {
    /// Small widths, so that each test encodes little.
    static func settings(
        widths: [Int] = [50, 100, 400], formats: [PictureFormat] = [.avif, .webp]
    ) -> PictureSettings {
        var settings = PictureSettings()
        settings.widths = widths
        settings.formats = formats
        return settings
    }

    /// The format a file's bytes say they are, as the encoder reads them.
    static func format(of bytes: Data) throws -> PictureHeader.Format {
        try PictureSignature.format(of: bytes)
    }

    // MARK: - Formats

    @Test(arguments: [
        (FRUITSITE_VIPS_JPEG, PictureHeader.Format.jpeg, PictureFormat.jpeg),
        (FRUITSITE_VIPS_PNG, .png, .png),
        (FRUITSITE_VIPS_WEBP, .webp, .jpeg),
        (FRUITSITE_VIPS_AVIF, .avif, .jpeg),
    ])
    func readsEachSourceFormat(
        source: FruitsiteVipsFormat, format: PictureHeader.Format, fallback: PictureFormat
    ) throws {
        let bytes = try TestPictures.photo(width: 200, height: 100, as: source)
        let picture = try PictureEncoder(settings: Self.settings()).encode(bytes)
        #expect(
            picture.header
                == PictureHeader(format: format, width: 200, height: 100, hasAlpha: false))
        // 400 is wider than the source: published at its own 200.
        #expect(
            picture.variants.map(\.format)
                == [.avif, .avif, .avif, .webp, .webp, .webp, fallback, fallback, fallback])
        #expect(picture.variants.map(\.width) == [50, 100, 200, 50, 100, 200, 50, 100, 200])
        for variant in picture.variants {
            #expect(try Self.format(of: variant.bytes).rawValue == variant.format.rawValue)
            let read = try TestPictures.readBack(variant.bytes)
            #expect((read.width, read.height) == (variant.width, variant.height))
            #expect(variant.height == variant.width / 2)
        }
    }

    @Test func keepsTransparencyInAPNGFallback() throws {
        let bytes = try TestPictures.make(
            width: 120, height: 60, bands: 4, as: FRUITSITE_VIPS_WEBP
        ) { x, _ in [200, 40, 40, x < 60 ? 255 : 0] }
        let picture = try PictureEncoder(settings: Self.settings(formats: [.webp])).encode(bytes)
        #expect(picture.header.hasAlpha)
        #expect(picture.variants.map(\.format) == [.webp, .webp, .webp, .png, .png, .png])
        for variant in picture.variants {
            #expect(try TestPictures.readBack(variant.bytes).bands == 4)
        }
    }

    @Test(arguments: [
        ("Dear reader, the photo is attached.\n", "text"),
        (
            "%PDF-1.7\n%\u{e2}\u{e3}\u{cf}\u{d3}\n1 0 obj\n<< /Type /Catalog >>\nendobj\n",
            "a PDF document"
        ),
        ("II*\0\u{8}\0\0\0", "a TIFF picture"),
        ("", "an empty file"),
    ])
    func rejectsWhatIsNoPicture(contents: String, looksLike: String) {
        #expect {
            try PictureEncoder().encode(Data(contents.utf8))
        } throws: { error in
            let error = error as? PictureError
            return error?.reason == .notAPicture(looksLike: looksLike)
                && error?.description
                    == "not a JPEG, PNG, WebP, AVIF, HEIC, GIF or SVG picture: it looks like \(looksLike)"
        }
    }

    /// Below the signature check, libvips itself refuses its untrusted loaders: librsvg,
    /// poppler, ImageMagick.
    @Test(arguments: [
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"9\" height=\"9\"/>",
        "%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages "
            + "/Kids [3 0 R] /Count 1 >> endobj\n3 0 obj << /Type /Page /Parent 2 0 R "
            + "/MediaBox [0 0 9 9] >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n",
    ])
    func libvipsRunsNoUntrustedLoader(contents: String) throws {
        let vips = try Vips.start()
        #expect(throws: Vips.Failure.self) {
            try Vips.exclusively { () throws(Vips.Failure) in
                try vips.header(of: Data(contents.utf8))
            }
        }
    }

    @Test func rejectsDamagedData() throws {
        let bytes = try TestPictures.photo(width: 200, height: 100, as: FRUITSITE_VIPS_JPEG)
        let error = #expect(throws: PictureError.self) {
            try PictureEncoder(settings: Self.settings()).encode(bytes.prefix(bytes.count / 2))
        }
        #expect(error?.reason == .damaged(.jpeg))
    }

    // MARK: - Limits

    /// A 20000 x 20000 PNG of 68 bytes is refused from its header, before libvips allocates
    /// its 1.2 GB of pixels: `tooManyPixels` is the header check's, which runs before any
    /// pixel is decoded (a bound on the time taken failed under the thread sanitizer).
    @Test func rejectsADecompressionBombFromItsHeader() {
        let bomb = TestPictures.pngDeclaring(width: 20000, height: 20000)
        let error = #expect(throws: PictureError.self) { try PictureEncoder().encode(bomb) }
        #expect(error?.reason == .tooManyPixels(width: 20000, height: 20000, limit: 100_000_000))
        #expect(
            error?.description
                == "the picture declares 20000 × 20000 pixels (400 megapixels), more than the "
                + "100 a picture may have; scale it down")
    }

    // MARK: - Sizes

    static func jpeg(width: Int) -> PictureHeader {
        PictureHeader(format: .jpeg, width: width, height: width, hasAlpha: false)
    }

    @Test func variantWidthsNeverEnlarge() {
        let settings = PictureSettings()
        #expect(settings.variantWidths(for: Self.jpeg(width: 4000)) == [320, 640, 960, 1280])
        #expect(settings.variantWidths(for: Self.jpeg(width: 1000)) == [320, 640, 960, 1000])
        #expect(settings.variantWidths(for: Self.jpeg(width: 320)) == [320])
        #expect(settings.variantWidths(for: Self.jpeg(width: 200)) == [200])
        var unsorted = settings
        unsorted.widths = [640, 0, 320, 640, -5]
        #expect(unsorted.variantWidths(for: Self.jpeg(width: 700)) == [320, 640])
        #expect(unsorted.variantWidths(for: Self.jpeg(width: 500)) == [320, 500])
        // A GIF or an SVG is published as it is, at its own size.
        let gif = PictureHeader(format: .gif, width: 2000, height: 10, hasAlpha: true)
        #expect(settings.variantWidths(for: gif) == [2000])
        #expect(settings.variantFormats(for: gif) == [.gif])
    }

    @Test func aSourceNarrowerThanEveryWidthIsPublishedAtItsOwn() throws {
        let bytes = try TestPictures.photo(width: 30, height: 20, as: FRUITSITE_VIPS_PNG)
        let picture = try PictureEncoder(settings: Self.settings(formats: [])).encode(bytes)
        #expect(picture.variants.map { [$0.width, $0.height] } == [[30, 20]])
    }

    /// Orientation 6 turns a stored 40 x 20 picture a quarter clockwise: 20 wide, 40 high.
    @Test func appliesTheEXIFOrientation() throws {
        var metadata = TestPictures.Metadata()
        metadata.orientation = 6
        let bytes = try TestPictures.make(
            width: 40, height: 20, as: FRUITSITE_VIPS_JPEG, metadata: metadata
        ) { x, _ in x < 20 ? [255, 0, 0] : [0, 0, 255] }
        let picture = try PictureEncoder(settings: Self.settings(formats: [.webp])).encode(bytes)
        #expect((picture.header.width, picture.header.height) == (20, 40))
        #expect(picture.variants.map { [$0.width, $0.height] } == [[20, 40], [20, 40]])
        for variant in picture.variants {
            let read = try TestPictures.readBack(variant.bytes)
            #expect((read.width, read.height) == (20, 40))
        }
    }

    /// Every EXIF orientation: 5 to 8 turn a stored 40 x 20 picture upright as 20 x 40, 1 to 4
    /// keep its shape; the variants are upright, and say no orientation any more.
    @Test(arguments: 1...8)
    func appliesEveryEXIFOrientation(orientation: Int) throws {
        var metadata = TestPictures.Metadata()
        metadata.orientation = orientation
        let bytes = try TestPictures.make(
            width: 40, height: 20, as: FRUITSITE_VIPS_JPEG, metadata: metadata
        ) { x, _ in x < 20 ? [255, 0, 0] : [0, 0, 255] }
        let upright = orientation >= 5 ? (20, 40) : (40, 20)
        let picture = try PictureEncoder(settings: Self.settings(formats: [.webp])).encode(bytes)
        #expect((picture.header.width, picture.header.height) == upright)
        for variant in picture.variants {
            let read = try TestPictures.readBack(variant.bytes)
            #expect((read.width, read.height) == upright)
            #expect(!read.fields.contains("orientation"))
        }
    }

    /// A 16-bit PNG is published at 8 bits a channel, in sRGB, its colour kept.
    @Test func publishesA16BitPictureAt8Bits() throws {
        let bytes = TestPictures.sixteenBitPNG(width: 48, height: 32) { _, _ in
            [0xFFFF, 0x8080, 0x0000]
        }
        let source = try TestPictures.readBack(bytes)
        #expect(source.interpretation != FRUITSITE_VIPS_INTERPRETATION_sRGB, "read as 16 bits")
        let picture = try PictureEncoder(settings: Self.settings(formats: [.webp])).encode(bytes)
        // Narrower than every width: one of each format, at its own.
        #expect(picture.variants.map(\.format) == [.webp, .png])
        for variant in picture.variants {
            let read = try TestPictures.readBack(variant.bytes)
            #expect(read.bands == 3 && read.interpretation == FRUITSITE_VIPS_INTERPRETATION_sRGB)
        }
        #expect(picture.placeholder.color == "#ff8000")
    }

    // MARK: - Colour and metadata

    /// A CMYK JPEG is published in sRGB: three channels, and cyan still cyan.
    @Test func convertsToSRGB() throws {
        let bytes = try TestPictures.make(
            width: 64, height: 64, bands: 4, as: FRUITSITE_VIPS_JPEG,
            interpretation: FRUITSITE_VIPS_INTERPRETATION_CMYK
        ) { _, _ in [255, 0, 0, 0] }
        let picture = try PictureEncoder(settings: Self.settings(formats: [.webp])).encode(bytes)
        for variant in picture.variants {
            let read = try TestPictures.readBack(variant.bytes)
            #expect(read.bands == 3)
            #expect(read.interpretation == FRUITSITE_VIPS_INTERPRETATION_sRGB)
        }
        let color = picture.placeholder.color
        let red = Int(color.dropFirst().prefix(2), radix: 16) ?? 255
        let blue = Int(color.suffix(2), radix: 16) ?? 0
        #expect(red < 40 && blue > 200, "cyan, not \(color)")
    }

    /// A picture with an ICC profile is converted with it: its red, which the profile says
    /// is green, is published green.
    @Test func convertsAPictureWithAProfileToSRGB() throws {
        var metadata = TestPictures.Metadata()
        metadata.iccProfile = TestPictures.swappedPrimariesProfile()
        let bytes = try TestPictures.make(
            width: 64, height: 64, as: FRUITSITE_VIPS_PNG, metadata: metadata
        ) { _, _ in [255, 0, 0] }
        #expect(try TestPictures.readBack(bytes).fields.contains("icc-profile-data"))
        let picture = try PictureEncoder(settings: Self.settings(formats: [.webp])).encode(bytes)
        #expect(picture.placeholder.color == "#00ff00")
    }

    @Test func publishesNoEXIFGPSXMPOrIPTC() throws {
        var metadata = TestPictures.Metadata()
        metadata.exif = [
            "exif-ifd0-ImageDescription": "Kiwi orchard",
            "exif-ifd3-GPSLatitudeRef": "S",
            "exif-ifd3-GPSLatitude": "37/1 41/1 0/1",
            "exif-ifd3-GPSLongitudeRef": "E",
            "exif-ifd3-GPSLongitude": "176/1 10/1 0/1",
        ]
        metadata.xmp =
            "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf="
            + "\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\"><rdf:Description "
            + "xmlns:xmp=\"http://ns.adobe.com/xap/1.0/\" xmp:CreatorTool=\"Orchard camera\"/>"
            + "</rdf:RDF></x:xmpmeta>"
        metadata.iptc = Array(
            "Photoshop 3.0\0008BIM\u{4}\u{4}\0\0\0\0\0\u{9}\u{1c}\u{2}\u{5}\0\u{5}Kiwis".utf8)
        let source = try TestPictures.make(
            width: 120, height: 80, as: FRUITSITE_VIPS_JPEG, metadata: metadata
        ) { x, y in [UInt8(x * 2), UInt8(y * 3), 90] }
        let sourceFields = try TestPictures.readBack(source).fields
        #expect(sourceFields.contains("exif-ifd3-GPSLatitude"), "the source has GPS")
        #expect(Set(["exif-data", "xmp-data", "iptc-data"]).isSubset(of: sourceFields))

        let picture = try PictureEncoder(settings: Self.settings()).encode(source)
        let outputs = picture.variants.map(\.bytes) + [picture.placeholder.preview]
        for bytes in outputs {
            for marker in ["Exif", "EXIF", "GPS", "http://ns.adobe.com/xap", "Photoshop", "Kiwi"] {
                #expect(bytes.range(of: Data(marker.utf8)) == nil, "\(marker) published")
            }
            let fields = try TestPictures.readBack(bytes).fields
            #expect(
                !fields.contains { $0.hasPrefix("exif-") || $0 == "xmp-data" || $0 == "iptc-data" })
        }
    }

    // MARK: - Determinism and placeholders

    @Test func theSameSourceGivesTheSameBytes() throws {
        let source = try TestPictures.photo(width: 300, height: 200, as: FRUITSITE_VIPS_JPEG)
        let encoder = PictureEncoder(settings: Self.settings(widths: [100, 300]))
        #expect(try encoder.encode(source) == encoder.encode(source))
    }

    @Test func thePlaceholderIsTheAverageColourAndATinyWebP() throws {
        let plain = try TestPictures.make(width: 90, height: 60, as: FRUITSITE_VIPS_PNG) {
            _, _ in [200, 30, 40]
        }
        let placeholder = try PictureEncoder(settings: Self.settings(formats: [])).encode(plain)
            .placeholder
        #expect(placeholder.color == "#c81e28")
        #expect((placeholder.previewWidth, placeholder.previewHeight) == (16, 11))
        #expect(try Self.format(of: placeholder.preview) == .webp)
        #expect(placeholder.dataURI.hasPrefix("data:image/webp;base64,"))

        let photo = try TestPictures.photo(width: 1600, height: 1200, as: FRUITSITE_VIPS_JPEG)
        let preview = try PictureEncoder(settings: Self.settings(formats: [])).encode(photo)
            .placeholder
        #expect(preview.dataURI.utf8.count <= 200, "\(preview.dataURI.utf8.count) bytes")
    }

    @Test func averagesOpaquePixelsOnly() {
        let pixels: [UInt8] = [255, 0, 0, 255, 0, 0, 255, 0, 10, 20, 30, 255]
        #expect(PicturePlaceholder.averageColor(of: pixels, bands: 4) == "#850a0f")
        #expect(PicturePlaceholder.averageColor(of: [1, 2, 3, 4, 5, 6], bands: 3) == "#030405")
    }

    @Test func theEncoderVersionNamesLibvipsAndItsCodecs() throws {
        let version = try PictureEncoder.encoderVersion
        #expect(version.hasPrefix("libvips 8."))
        #expect(version.contains("libwebp "))
    }
}
