import Dispatch
import Foundation
import FruitsiteCore

// Loads the sample catalog and theme once, then renders every page of the site over and over:
// the figure is the engine's rendering rate, without reading or writing files.

let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../../..").standardizedFileURL.path
var options = BuildOptions()
options.contentDirectory = root + "/Content"
options.templatesDirectory = root + "/Templates"
let builder = SiteBuilder(options: options)
let config = try builder.loadConfig()
guard let catalog = builder.loadCatalog(config: config).catalog else {
    fatalError("the sample content has errors; run fruitsite check")
}
let theme = try TemplateLoader(templatesDirectory: options.templatesDirectory).load()
let renderer = PageRenderer(
    config: config, theme: theme, templatesDirectory: options.templatesDirectory)

let rounds = Int(ProcessInfo.processInfo.environment["RENDER_ROUNDS"] ?? "") ?? 200
_ = try renderer.render(catalog)  // warm-up
var samples: [Double] = []
var pagesPerRound = 0
for _ in 0..<5 {
    let start = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<rounds {
        pagesPerRound = try renderer.render(catalog).count { $0.path.hasSuffix(".html") }
    }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    samples.append(Double(pagesPerRound * rounds) / seconds)
}
samples.sort()
let median = samples[samples.count / 2]
print(
    "Mustache rendering, sample theme: \(pagesPerRound) HTML pages a round, \(rounds) rounds x 5, "
        + "\(ProcessInfo.processInfo.activeProcessorCount) cores")
print(
    String(
        format: "  median %.0f pages/s (min %.0f, max %.0f)", median, samples[0],
        samples[samples.count - 1]))
