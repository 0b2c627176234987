import Dispatch
import Foundation
import FruitsiteCore

// Renders the sample site in memory over and over, as `fruitsite check` does: the theme and
// the entries are read and parsed, every page is rendered, nothing is written. The figure is
// pages a second through parsing and the Mustache engine, without the disk's noise.

let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../../..").standardizedFileURL.path
var options = BuildOptions()
options.contentDirectory = root + "/Content"
options.templatesDirectory = root + "/Templates"
let builder = SiteBuilder(options: options)

let rounds = Int(ProcessInfo.processInfo.environment["RENDER_ROUNDS"] ?? "") ?? 100
let pagesPerRound = try builder.check().htmlPageCount  // warm-up
var samples: [Double] = []
for _ in 0..<5 {
    let start = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<rounds {
        _ = try builder.check()
    }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    samples.append(Double(pagesPerRound * rounds) / seconds)
}
samples.sort()
let median = samples[samples.count / 2]
print(
    "The sample site rendered in memory (parse and render, as check does): \(pagesPerRound) "
        + "HTML pages a round, \(rounds) rounds x 5, "
        + "\(ProcessInfo.processInfo.activeProcessorCount) cores")
print(
    String(
        format: "  median %.0f pages/s (min %.0f, max %.0f)", median, samples[0],
        samples[samples.count - 1]))
