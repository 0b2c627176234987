import Foundation
import TestSupport
import Testing

/// Compares output with `Tests/FruitsiteCoreTests/Golden/<name>`.
///
/// `FRUITSITE_RECORD=1` rewrites the file and still fails, so a recording is never mistaken
/// for a pass.
enum Golden {
    static let directory = repositoryRoot + "/Tests/FruitsiteCoreTests/Golden"

    /// The stamps of the theme's assets are masked (`assets/site.********.css`): a golden
    /// page is about the page, and would otherwise change with every edit of an asset, whose
    /// stamps `AssetNamesTests` pins.
    static func assertMatches(
        _ actual: String, name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        let actual = actual.replacing(
            /(assets\/[^"'\s?#)]*?\.)[a-z2-7]{8}(\.[A-Za-z0-9]+)/,
            with: { "\($0.1)********\($0.2)" })
        let path = directory + "/" + name
        if ProcessInfo.processInfo.environment["FRUITSITE_RECORD"] == "1" {
            try Data(actual.utf8).write(to: URL(fileURLWithPath: path))
            Issue.record(
                "recorded \(name); run again without FRUITSITE_RECORD",
                sourceLocation: sourceLocation)
            return
        }
        guard let expected = try? String(contentsOfFile: path, encoding: .utf8) else {
            Issue.record(
                "no golden file \(name); run with FRUITSITE_RECORD=1",
                sourceLocation: sourceLocation)
            return
        }
        if expected != actual {
            Issue.record(
                "\(name) differs from its golden file:\n\(lineDiff(expected: expected, actual: actual))",
                sourceLocation: sourceLocation)
        }
    }

    /// The lines that differ, `-` expected and `+` actual, with line numbers.
    static func lineDiff(expected: String, actual: String) -> String {
        let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
        var lines: [String] = []
        for index in 0..<max(old.count, new.count) {
            let a = index < old.count ? String(old[index]) : nil
            let b = index < new.count ? String(new[index]) : nil
            if a != b {
                if let a { lines.append("\(index + 1) - \(a)") }
                if let b { lines.append("\(index + 1) + \(b)") }
            }
            if lines.count > 40 { break }
        }
        return lines.joined(separator: "\n")
    }
}
