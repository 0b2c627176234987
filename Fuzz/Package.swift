// swift-tools-version: 6.0
// libFuzzer targets for fruitsite; `make fuzz` builds and runs them (see run.sh).
// A separate package, so the main package's `swift build` and `swift test` never see the
// fuzzer flags.
import PackageDescription

let package = Package(
    name: "FruitsiteFuzz",
    dependencies: [
        .package(name: "fruitsite", path: "..")
    ],
    targets: [
        .target(name: "FuzzerDriver"),
        .executableTarget(
            name: "FuzzContent",
            dependencies: ["FuzzerDriver", .product(name: "FruitsiteCore", package: "fruitsite")]
        ),
        .executableTarget(
            name: "FuzzRequest",
            dependencies: ["FuzzerDriver", .product(name: "FruitsiteServe", package: "fruitsite")]
        ),
        .executableTarget(
            name: "FuzzMustache",
            dependencies: ["FuzzerDriver", .product(name: "Mustache", package: "fruitsite")]
        ),
    ]
)
