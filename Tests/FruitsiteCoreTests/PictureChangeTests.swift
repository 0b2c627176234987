import CVips
import Foundation
import TestSupport
import Testing

@testable import FruitsiteCore

/// An entry's picture is one of its files: a build reads the entry again when the picture's
/// status changes, as when the entry's own file's does, and `serve` when a watcher reports
/// the picture's path.
@Suite struct PictureChangeTests {
    /// A copy of the sample site whose apple names a picture `apple.jpg`, 400 x 300, with the
    /// clock an hour ahead, so that every file's status is trusted at once.
    static func project() throws -> IncrementalBuildTests.Project {
        let project = try IncrementalBuildTests.Project(settled: true)
        try write(photo(width: 400, seed: 1), to: project.folder.path + "/Content/apple.jpg")
        try FruitImageTests.setImage(
            "image: {src: apple.jpg, alt: An apple}", of: "apple", in: project)
        return project
    }

    static func photo(width: Int, seed: UInt64) throws -> Data {
        try TestPictures.photo(
            width: width, height: width * 3 / 4, as: FRUITSITE_VIPS_JPEG, seed: seed)
    }

    /// Writes `bytes` over the file at `path`, in place, as an editor saving a photo does.
    static func write(_ bytes: Data, to path: String) throws {
        try bytes.write(to: URL(fileURLWithPath: path))
    }

    /// The apple's picture as the model a build leaves records it.
    static func applePicture(in rendering: SiteBuilder.Rendering) throws -> FruitImage? {
        var model = try #require(rendering.models.first)
        let site = model.decode()
        let apple = try #require(site.ids.first { site[$0].slug == "apple" })
        return site[apple].fruit.image
    }

    @Test func aPictureReplacedUnderItsNameIsReadAgain() throws {
        let project = try Self.project()
        defer { project.folder.remove() }
        let first = try project.build()
        #expect(try Self.applePicture(in: first)?.header.width == 400)

        let photo = try Self.photo(width: 200, seed: 2)
        try Self.write(photo, to: project.folder.path + "/Content/apple.jpg")
        let replaced = try project.build()
        #expect(replaced.parsed == 1)
        let picture = try Self.applePicture(in: replaced)
        #expect(picture?.sourceHash == StableHasher.hash([UInt8](photo)))
        #expect(picture?.header.width == 200 && picture?.header.height == 150)

        // The picture's status is saved with the model, whole or as changes.
        let again = try project.build()
        #expect(again.parsed == 0 && again.rendered == 0)
        #expect(try Self.applePicture(in: again)?.sourceHash == picture?.sourceHash)
    }

    /// A picture removed is an error at `src:` until it is back; the build then reads it.
    @Test func aPictureRemovedIsAnErrorUntilItIsBack() throws {
        let project = try Self.project()
        defer { project.folder.remove() }
        try project.build()
        let path = project.folder.path + "/Content/apple.jpg"
        try FileManager.default.removeItem(atPath: path)
        do {
            try project.build()
            Issue.record("the build succeeded without the picture")
        } catch let failure as BuildFailure {
            let errors = failure.diagnostics.filter(\.isError)
            #expect(errors.count == 1, "\(errors)")
            #expect(errors.first?.message.hasPrefix("cannot read the picture") == true)
            #expect(errors.first?.location.path.hasSuffix("/apple.md") == true)
            #expect(errors.first?.location.line == 4 && errors.first?.location.column == 14)
        }
        let photo = try Self.photo(width: 240, seed: 3)
        try Self.write(photo, to: path)
        let back = try project.build()
        #expect(back.parsed == 1)
        #expect(try Self.applePicture(in: back)?.sourceHash == StableHasher.hash([UInt8](photo)))
        #expect(try project.build().parsed == 0)
    }

    /// `serve` reads an entry again when its picture's path is reported, and only then.
    @Test func aReportedPictureLeadsToItsEntry() throws {
        var live = try LiveSiteTests.Live()
        defer { live.folder.remove() }
        let picture = live.path("apple.jpg")
        try Self.write(Self.photo(width: 400, seed: 1), to: picture)
        let apple = live.path("apple.md")
        try (try String(contentsOfFile: apple, encoding: .utf8))
            .split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("image:") }.joined(separator: "\n")
            .replacingOccurrences(
                of: "\ncategory: ", with: "\nimage: {src: apple.jpg, alt: An apple}\ncategory: "
            )
            .write(toFile: apple, atomically: true, encoding: .utf8)
        try live.update(changing: [apple, picture])

        try Self.write(Self.photo(width: 200, seed: 2), to: picture)
        // Apricot names no picture: its file alone is looked at, and is as it was.
        #expect(try live.update(changing: [live.path("apricot.md")]).rendering.parsed == 0)
        #expect(try live.update(changing: [picture]).rendering.parsed == 1)

        try FileManager.default.removeItem(atPath: picture)
        #expect(throws: BuildFailure.self) { try live.update(changing: [picture]) }
        try Self.write(Self.photo(width: 240, seed: 3), to: picture)
        #expect(try live.update(changing: [picture]).rendering.parsed >= 1)
        try live.expectFresh("after the picture came back")
    }
}
