// swift-tools-version: 6.0
// The picture encoder's speed and output sizes per format and AVIF effort; bench.sh builds
// and runs it. A separate package, so the main package's builds never compile it.
import PackageDescription

let package = Package(
    name: "PictureBench",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "fruitsite", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "PictureBench",
            dependencies: [.product(name: "FruitsiteCore", package: "fruitsite")]
        )
    ]
)
