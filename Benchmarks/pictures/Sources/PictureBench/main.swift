// Encodes each picture given with fruitsite's default widths in each format, and prints the
// time and bytes of each:
//
//   PictureBench [--efforts 0,2,4,6,9] [--runs 3] PICTURE...
//
// Each row times a whole encode with one format besides the fallback, less the time of an
// encode with the fallback alone ("decode + fallback": the decode, the fallback variants and
// the placeholder), which its first row gives. CPU time is the process's (user + system),
// which other work on the machine disturbs less than the wall time; libvips runs one thread
// per picture, as in a build.
import Foundation
import FruitsiteCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

var arguments = Array(CommandLine.arguments.dropFirst())
var efforts = [0, 2, 4, 6, 9]
var runs = 1
while let option = arguments.first, option.hasPrefix("--"), arguments.count >= 2 {
    let value = arguments[1]
    arguments.removeFirst(2)
    switch option {
    case "--efforts": efforts = value.split(separator: ",").compactMap { Int($0) }
    case "--runs": runs = max(1, Int(value) ?? 1)
    default:
        print("error: unknown option \(option)")
        exit(2)
    }
}
guard !arguments.isEmpty else {
    print("usage: PictureBench [--efforts 0,2,4,6,9] [--runs N] PICTURE...")
    exit(2)
}

/// The process's CPU time and the wall time, in milliseconds.
func clocks() -> (cpu: Double, wall: Double) {
    var usage = rusage()
    #if canImport(Glibc)
        getrusage(RUSAGE_SELF.rawValue, &usage)
    #else
        getrusage(RUSAGE_SELF, &usage)
    #endif
    let cpu =
        Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1000
    return (cpu, Double(DispatchTime.now().uptimeNanoseconds) / 1_000_000)
}

/// The median CPU and wall milliseconds of `runs` encodes, and the last result.
func measure(_ source: Data, _ settings: PictureSettings, runs: Int) throws -> (
    cpu: Double, wall: Double, picture: EncodedPicture
) {
    var times: [(cpu: Double, wall: Double)] = []
    var picture: EncodedPicture?
    for _ in 0..<runs {
        let start = clocks()
        picture = try PictureEncoder(settings: settings).encode(source)
        let end = clocks()
        times.append((end.cpu - start.cpu, end.wall - start.wall))
    }
    let cpu = times.map(\.cpu).sorted()[runs / 2]
    let wall = times.map(\.wall).sorted()[runs / 2]
    return (cpu, wall, picture!)
}

func row(_ label: String, _ cpu: Double, _ wall: Double, _ variants: [PictureVariant]) -> String {
    let sizes = variants.map { String(format: "%7.1f", Double($0.bytes.count) / 1024) }
    let total = Double(variants.reduce(0) { $0 + $1.bytes.count }) / 1024
    return label.padding(toLength: 18, withPad: " ", startingAt: 0)
        + String(format: " %8.0f %8.0f ", cpu, wall) + sizes.joined(separator: " ")
        + String(format: " %8.1f", total)
}

print("encoder: \(try PictureEncoder.encoderVersion)")
print("widths: \(PictureSettings().widths); runs per row: \(runs); times in ms, sizes in KiB")
for path in arguments {
    let source = try Data(contentsOf: URL(fileURLWithPath: path))
    var settings = PictureSettings()
    settings.formats = []
    let header = try PictureEncoder(settings: settings).readHeader(of: source)
    let base = try measure(source, settings, runs: runs)
    let widths = base.picture.variants.map { String(format: "%7d", $0.width) }
    print(
        "\n\(URL(fileURLWithPath: path).lastPathComponent): \(header.width) x \(header.height) "
            + "\(header.format.name), \(source.count / 1024) KiB; placeholder "
            + "\(base.picture.placeholder.preview.count) bytes, data: URI "
            + "\(base.picture.placeholder.dataURI.utf8.count) bytes, "
            + base.picture.placeholder.color)
    print("format                  cpu     wall " + widths.joined(separator: " ") + "    total")
    print(row("decode + fallback", base.cpu, base.wall, base.picture.variants))
    func encodeOne(_ format: PictureFormat, effort: Int, label: String) throws {
        var one = settings
        one.formats = [format]
        one.avifEffort = effort
        let result = try measure(source, one, runs: runs)
        let variants = result.picture.variants.filter { $0.format == format }
        print(row(label, result.cpu - base.cpu, result.wall - base.wall, variants))
    }
    try encodeOne(.webp, effort: 0, label: "webp")
    for effort in efforts {
        try encodeOne(.avif, effort: effort, label: "avif effort \(effort)")
    }
}
