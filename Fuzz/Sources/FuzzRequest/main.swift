import Foundation
import FruitsiteServe
import FuzzerDriver

// The request bytes `fruitsite serve` reads from a connection: parsed, and each target
// resolved against a site at the root and under a base path. Besides crashes and hangs, a
// finding is any resolved site path that could step outside the site: a `.` or `..`
// segment, a backslash or a NUL after decoding.

func fuzzRequest(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    var targets: [String] = []
    switch HTTPRequest.parse(bytes) {
    case .incomplete, .failure:
        break
    case .request(let request, let length):
        precondition(length > 0 && length <= bytes.count, "a request longer than its bytes")
        targets.append(request.target)
    }
    // Every line, as a target on its own, reaches the resolver far more often.
    for line in bytes.split(separator: UInt8(ascii: "\n")) {
        targets.append(String(decoding: line, as: UTF8.self))
    }
    for target in targets {
        for base in ["/", "/sub/path/"] {
            guard case .site(let path, _) = RequestPath(target: target, basePath: base) else {
                continue
            }
            let segments = path.split(separator: "/", omittingEmptySubsequences: false)
            precondition(
                !path.contains("\\") && !path.contains("\u{0}")
                    && !segments.contains(where: { $0 == "." || $0 == ".." }),
                "\(target) resolved to \(path) under \(base)")
        }
    }
    return 0
}

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzRequest(data, size) })
