import Foundation
import FruitsiteCore
import TestSupport
import Testing

/// How the model is kept between builds: a build that changed little writes its changes
/// beside the model file, which stays as it was; many changes write the model whole again.
@Suite struct ModelStoreTests {
    @Test func fewChangesAreSavedBesideTheModelAndManyWriteItWhole() throws {
        let project = try IncrementalBuildTests.Project(settled: true)
        defer { project.folder.remove() }
        let manager = FileManager.default
        let (content, cache) = (project.folder.path + "/Content", project.folder.path + "/.cache")
        func cacheFile(_ suffix: String) -> String? {
            ((try? manager.contentsOfDirectory(atPath: cache)) ?? [])
                .first { $0.hasSuffix(suffix) }.map { cache + "/" + $0 }
        }
        /// Builds and compares with a clean build, and expects the saved model to be used.
        func build(_ step: String) throws {
            let rendering = try project.buildAndCompare(step)
            #expect(rendering.notes.isEmpty, "\(step): \(rendering.notes)")
        }

        try project.buildAndCompare("first build")
        let modelPath = try #require(cacheFile(".model"))
        #expect(cacheFile(".changes") == nil)
        let whole = try FileSystemBytes.read(modelPath)

        // A changed, an added and a removed entry: the model file stays as it was.
        try project.edit("Content/apple.md") { $0 + "\nMore.\n" }
        try build("a body edit")
        try project.folder.write(
            "Content/bluebarry.md", "---\nname: Bluebarry\ncategory: Berries\n---\nNew.\n")
        try build("an added fruit")
        try manager.removeItem(atPath: content + "/banana.md")
        try build("a removed fruit")
        #expect(try FileSystemBytes.read(modelPath) == whole)
        let changesPath = try #require(cacheFile(".changes"))
        let changes = try FileSystemBytes.read(changesPath)

        // Every entry changed: the model is written whole, and the changes go.
        for name in try manager.contentsOfDirectory(atPath: content) where name.hasSuffix(".md") {
            try project.edit("Content/" + name) { $0 + "\nRevised.\n" }
        }
        try build("every entry edited")
        #expect(cacheFile(".changes") == nil)
        #expect(try FileSystemBytes.read(modelPath) != whole)

        // Changes made for the model file as it was before are not applied to it: the build
        // starts clean, says why, and leaves no changes file.
        try Data(changes).write(to: URL(fileURLWithPath: changesPath))
        try project.edit("Content/apple.md") { $0 + "\nMore again.\n" }
        let stale = try project.buildAndCompare("stale changes beside the model")
        #expect(
            stale.notes == [
                "building clean: the saved model's changes file was made for another model file"
            ])
        #expect(cacheFile(".changes") == nil)
        try build("nothing changed")
    }
}
