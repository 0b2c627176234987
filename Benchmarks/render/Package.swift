// swift-tools-version: 6.0
// How fast the Mustache engine renders the sample theme, apart from loading and writing.
// Run with `make bench`, or: swift run -c release --package-path Benchmarks/render
import PackageDescription

let package = Package(
    name: "render-bench",
    dependencies: [.package(name: "fruitsite", path: "../..")],
    targets: [
        .executableTarget(
            name: "render-bench",
            dependencies: [.product(name: "FruitsiteCore", package: "fruitsite")]
        )
    ]
)
