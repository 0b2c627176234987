import Foundation
import FruitsiteCore
import FuzzerDriver

/// libFuzzer's entry point: parses the input as one content file.
///
/// Any result is fine, errors included; only a crash, a hang or a leak is a finding.
func fuzzContent(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    // Raw HTML on and off take different paths through libcmark.
    let isRawHTML = bytes.count.isMultiple(of: 2)
    let parser = FruitParser(markdown: CommonMark(allowsRawHTML: isRawHTML))
    let result = parser.parse(SourceFile(path: "Content/fuzz.md", bytes: bytes))
    if let fruit = result.fruit {
        // Touch the values so nothing is optimized away.
        precondition(!fruit.name.isEmpty)
    }
    return 0
}

// MARK: - Entry point

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzContent(data, size) })
