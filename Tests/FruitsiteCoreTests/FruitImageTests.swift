import CVips
import Foundation
import TestSupport
import Testing

@testable import FruitsiteCore

/// An entry's picture (`image:`): read by the scan from the entry's folder, its header and
/// placeholder part of the fruit, and every problem with it an error at `src:`'s place, with
/// the build's other errors.
@Suite struct FruitImageTests {
    @Test(arguments: [
        ("Content/a/b.md", "x.jpg", "Content/a/x.jpg"),
        ("Content/a/b.md", "./p/x.jpg", "Content/a/p/x.jpg"),
        ("Content/a/b.md", "../y.jpg", "Content/y.jpg"),
        ("Content/b.md", "p//x.jpg", "Content/p/x.jpg"),
        ("Content/a/b.md", "../../y.jpg", nil),
        ("Content/b.md", "/etc/passwd", nil),
    ])
    func picturesAreFoundFromTheEntrysFolderInsideTheContent(
        entry: String, source: String, path: String?
    ) {
        #expect(ContentScanner.picturePath(source, from: entry, in: "Content") == path)
    }

    @Test func theConfigSetsHowPicturesArePublished() throws {
        let config = try SiteConfig(
            yaml: """
                images:
                  widths: [480, 960]
                  formats: [webp]
                  quality: {avif: 40, webp: 70, jpeg: 85}
                  avifEffort: 5
                """, path: "fruitsite.yml")
        var expected = PictureSettings()
        (expected.widths, expected.formats, expected.avifEffort) = ([480, 960], [.webp], 5)
        (expected.avifQuality, expected.webpQuality, expected.jpegQuality) = (40, 70, 85)
        #expect(config.images == expected)
        #expect(
            try SiteConfig(yaml: "title: T\n", path: "fruitsite.yml").images == PictureSettings())
    }

    @Test(arguments: [
        ("images: [320]", "'images' must be a map"),
        ("images: {widths: 320}", "'images.widths' must be a list of widths"),
        ("images: {widths: [10]}", "'images.widths' must be a list of widths"),
        ("images: {widths: []}", "'images.widths' must be a list of widths"),
        ("images: {formats: [avif, gif]}", "'images.formats' must be a list of avif and webp"),
        ("images: {quality: {webp: 0}}", "'images.quality.webp' must be a whole number"),
        ("images: {quality: {png: 9}}", "unknown key 'images.quality.png'"),
        ("images: {avifEffort: 10}", "'images.avifEffort' must be a whole number from 0 to 9"),
        ("images: {width: [320]}", "unknown key 'images.width'"),
    ])
    func aWrongImagesSettingIsAnErrorAtItsPlace(config: String, message: String) throws {
        do {
            _ = try SiteConfig(yaml: "title: T\n" + config + "\n", path: "fruitsite.yml")
            Issue.record("\(config) was accepted")
        } catch {
            #expect(error.diagnostics.count == 1, "\(error.diagnostics)")
            #expect(error.diagnostics.first?.message.hasPrefix(message) == true, "\(error)")
            #expect(error.diagnostics.first?.location.line == 2)
        }
    }

    /// The plan names and sizes each variant as the encoder makes it, before it is made:
    /// wide and tall sources, one narrower than every width, with and without alpha.
    @Test(arguments: [
        (3000, 2000, false), (1000, 1499, false), (200, 333, false), (1287, 965, true),
    ])
    func theVariantsArePlannedAsTheyAreEncoded(width: Int, height: Int, alpha: Bool) throws {
        let source =
            alpha
            ? try TestPictures.make(width: width, height: height, bands: 4, as: FRUITSITE_VIPS_PNG)
            {
                x, y in [UInt8(x % 256), UInt8(y % 256), 90, UInt8((x + y) % 256)]
            }
            : try TestPictures.photo(width: width, height: height, as: FRUITSITE_VIPS_JPEG)
        let encoder = PictureEncoder()
        let (header, placeholder) = try encoder.describe(source, allowsScripts: false)
        let image = FruitImage(
            path: "Content/Red Apple.final.jpg", alt: "",
            sourceHash: StableHasher.hash([UInt8](source)),
            header: header, placeholder: placeholder)
        let plan = PicturePlan(image, settings: encoder.settings)
        let encoded = try encoder.encode(source)
        #expect(plan.variants.map(\.format) == encoded.variants.map(\.format))
        #expect(plan.variants.map(\.width) == encoded.variants.map(\.width))
        #expect(plan.variants.map(\.height) == encoded.variants.map(\.height))
        for variant in plan.variants {
            #expect(variant.path.hasPrefix("images/red-apple-final-\(variant.width)."))
            #expect(
                ContentName.isStamped(variant.path)
                    && variant.path.hasSuffix(variant.format.fileExtension))
        }
        #expect(Set(plan.variants.map(\.path)).count == plan.variants.count)
        var other = encoder.settings
        other.webpQuality = 60
        let replanned = PicturePlan(image, settings: other)
        for (a, b) in zip(plan.variants, replanned.variants) {
            #expect((a.path == b.path) == (a.format != .webp), "\(a.path) \(b.path)")
        }
    }

    /// A template gets each variant's URL from the page's root, the fallback's size for the
    /// `<img>`, the other formats as sources, and the variant nearest 1,200 pixels for link
    /// previews.
    @Test func aTemplateGetsEveryVariantFromThePagesRoot() throws {
        let image = FruitImage(
            path: "Content/apple.jpg", alt: "A red apple", sourceHash: 9,
            header: PictureHeader(format: .jpeg, width: 2000, height: 1500, hasAlpha: false),
            placeholder: PicturePlaceholder(
                color: "#b02020", preview: Data([1, 2]), previewWidth: 16, previewHeight: 12))
        let plan = PicturePlan(image, settings: PictureSettings())
        let value = PictureValues.value(of: image, plan: plan, root: "../../")
        guard case .object(let object) = value else {
            Issue.record("not an object")
            return
        }
        let jpegs = plan.variants.filter { $0.format == .jpeg }
        #expect(jpegs.map(\.width) == [320, 640, 960, 1280])
        #expect(object["src"] == .string("../../" + jpegs[3].path))
        #expect(object["width"] == .int(1280) && object["height"] == .int(960))
        #expect(
            object["srcset"]
                == .string(jpegs.map { "../../\($0.path) \($0.width)w" }.joined(separator: ", ")))
        #expect(object["type"] == "image/jpeg" && object["alt"] == "A red apple")
        guard case .array(let sources)? = object["sources"] else {
            Issue.record("no sources")
            return
        }
        #expect(sources.count == 2)
        guard case .object(let avif) = sources[0] else {
            Issue.record("not an object")
            return
        }
        #expect(avif["type"] == "image/avif")
        guard case .object(let large)? = object["large"] else {
            Issue.record("no large")
            return
        }
        #expect(large["width"] == .int(1280) && large["path"] == .string(jpegs[3].path))
        #expect(object["placeholder"] == .string(image.placeholder.dataURI))
    }

    /// A copy of the sample site whose apple has a picture `apple.jpg`, 400 x 300.
    static func project(image: String) throws -> IncrementalBuildTests.Project {
        let project = try IncrementalBuildTests.Project()
        let photo = try TestPictures.photo(width: 400, height: 300, as: FRUITSITE_VIPS_JPEG)
        try photo.write(to: URL(fileURLWithPath: project.folder.path + "/Content/apple.jpg"))
        try setImage(image, of: "apple", in: project)
        return project
    }

    /// Gives the sample entry `slug` the `image:` line `image`, in place of its own.
    static func setImage(
        _ image: String, of slug: String, in project: IncrementalBuildTests.Project
    ) throws {
        try project.edit("Content/\(slug).md") { text in
            text.split(separator: "\n", omittingEmptySubsequences: false)
                .filter { !$0.hasPrefix("image:") }.joined(separator: "\n")
                .replacingOccurrences(of: "\ncategory: ", with: "\n" + image + "\ncategory: ")
        }
    }

    @Test func theFruitHasItsPicturesSizeAndPlaceholder() throws {
        let project = try Self.project(image: "image: {src: apple.jpg, alt: A red apple}")
        defer { project.folder.remove() }
        try project.build()
        let scanner = ContentScanner(
            contentDirectory: project.options.contentDirectory, fileSystem: .local,
            parser: FruitParser(), now: 0)
        let reference = FruitParser.ImageReference(
            source: "apple.jpg", alt: "A red apple",
            location: SourceLocation(path: "apple.md", line: 1, column: 1))
        let (image, file) = try scanner.picture(
            reference, of: project.options.contentDirectory + "/apple.md")
        #expect(file.path == image.path && file.status == FileSystem.local.status(image.path))
        #expect(image.path == project.options.contentDirectory + "/apple.jpg")
        #expect(image.header.width == 400 && image.header.height == 300)
        #expect(image.header.format == .jpeg && image.alt == "A red apple")
        #expect(image.placeholder.color.count == 7 && image.placeholder.dataURI.utf8.count <= 200)
    }

    /// Each entry's problem with its picture is an error at its `src:`, reported together;
    /// the previous output stays.
    @Test func everyProblemWithAPictureIsAnErrorAtItsSource() throws {
        let project = try Self.project(image: "image: {src: apple.jpg, alt: A red apple}")
        defer { project.folder.remove() }
        try project.build()
        let output = filesBelow(project.folder.path + "/Output")
        try project.folder.write("Content/notes.jpg", "just text\n")
        let cases = [
            ("banana", "missing.jpg", "cannot read the picture"),
            (
                "cherry", "notes.jpg",
                "not a JPEG, PNG, WebP, AVIF, HEIC, GIF or SVG picture: it looks like"
            ),
            ("kiwi", "../../secret.jpg", "'image.src' leads outside the content folder"),
        ]
        for (slug, source, _) in cases {
            try Self.setImage("image: {src: \(source), alt: x}", of: slug, in: project)
        }
        do {
            try project.build()
            Issue.record("the build succeeded")
        } catch let failure as BuildFailure {
            let errors = failure.diagnostics.filter(\.isError)
            #expect(errors.count == cases.count, "\(errors)")
            for (slug, _, message) in cases {
                let error = errors.first { $0.location.path.hasSuffix("/\(slug).md") }
                #expect(
                    error?.message.contains(message) == true,
                    "\(slug): \(String(describing: error))")
                #expect(error?.location.column == 14, "\(slug): the column of src's value")
            }
        }
        #expect(filesBelow(project.folder.path + "/Output") == output)
    }
}
