import Foundation
import FuzzerDriver
import Mustache

// MARK: - Input layout

// The input is split at NUL bytes: the first piece is the template `main`, the next ones are
// the partials `a`, `b`, `c` and so on, which `main` and each other may include or extend.
// The seeds in Corpus/mustache/ follow this layout.

private let partialNames = ["a", "b", "c", "d", "e", "f", "g", "h"]

/// A fixed data tree with every kind of value, nested objects and lists, and names that
/// dynamic partials (`{{>*partial}}`) resolve to.
private let data: MustacheValue = {
    let json = #"""
        {
          "name": "Fig", "html": "<b>&\"'</b>", "count": 3, "zero": 0, "ratio": 1.5,
          "yes": true, "no": false, "nothing": null, "empty": "", "emptyList": [],
          "partial": "a", "parent": "b", "missing": "zz",
          "list": [
            {"name": "one", "list": [1, 2], "yes": false},
            {"name": "two", "inner": {"name": "x", "list": ["p", "q"]}}
          ],
          "object": {"name": "inner", "deep": {"deeper": {"name": "deepest", "list": [true]}}},
          "names": ["a", "b"]
        }
        """#
    // The JSON above is a constant, so a failure here is a bug in this file.
    return try! MustacheValue(jsonData: Data(json.utf8))
}()

/// libFuzzer's entry point: compiles the input as a template library, with and without
/// `requiresKnownPartials`, and renders `main` and the one-template API.
///
/// Errors are fine; only a crash, a hang or a leak is a finding.
func fuzzMustache(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    let pieces = bytes.split(separator: 0, omittingEmptySubsequences: false)
        .map { String(decoding: $0, as: UTF8.self) }
    var templates: [String: String] = ["main": pieces[0]]
    for (name, source) in zip(partialNames, pieces.dropFirst()) {
        templates[name] = source
    }
    for requiresKnownPartials in [false, true] {
        guard
            let library = try? MustacheLibrary(
                templates: templates, requiresKnownPartials: requiresKnownPartials)
        else { continue }
        _ = try? library.render("main", with: data)
        _ = try? library.render("a", with: .array([data, .null, "text"]))
    }
    if let template = try? MustacheTemplate(pieces[0], name: "main") {
        var partials = templates
        partials["main"] = nil
        _ = try? template.render(data, partials: partials)
    }
    return 0
}

// MARK: - Entry point

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzMustache(data, size) })
