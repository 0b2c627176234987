// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "fruitsite",
    // Synchronization's Atomic and String(validating:as:) need macOS 15 on Apple platforms.
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "fruitsite", targets: ["fruitsite"]),
        .library(name: "Mustache", targets: ["Mustache"]),
        .library(name: "FruitsiteCore", targets: ["FruitsiteCore"]),
        .library(name: "FruitsiteServe", targets: ["FruitsiteServe"]),
    ],
    targets: [
        // MARK: - C libraries
        .systemLibrary(
            name: "CCmark",
            pkgConfig: "libcmark",
            providers: [.apt(["libcmark-dev"]), .brew(["cmark"])]
        ),
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),
        // libvips is loaded with dlopen at the first picture, not linked: its hundred libraries
        // would slow the start of every run. Its declarations are in CVips's shim.h, checked
        // against libvips's headers by `make shim-test`.
        .systemLibrary(name: "CVips"),

        // MARK: - Libraries
        .target(name: "Mustache"),
        // ICU (collation, plural rules, numbers) is the copy Foundation links in on Linux.
        .target(
            name: "FruitsiteCore", dependencies: ["CCmark", "CYAML", "CVips", "Mustache"],
            linkerSettings: [.linkedLibrary("_FoundationICU", .when(platforms: [.linux]))],
            plugins: ["EmbedTheme"]),
        .target(name: "FruitsiteServe", dependencies: ["FruitsiteCore"]),
        .target(name: "FruitsiteCLI", dependencies: ["FruitsiteCore", "FruitsiteServe"]),

        // MARK: - The default theme, embedded in FruitsiteCore for `fruitsite init`
        .executableTarget(name: "ThemeEmbedder"),
        .plugin(name: "EmbedTheme", capability: .buildTool(), dependencies: ["ThemeEmbedder"]),

        // MARK: - The executable: one call into FruitsiteCLI
        // On Linux a release build allocates with jemalloc: glibc's malloc keeps some of what
        // a large build frees, 120 MiB of the peak at 1,000,000 entries (Benchmarks/HISTORY.md).
        // Debug builds, which the sanitizers use, keep the system's: under AddressSanitizer,
        // memory libheif took from jemalloc would be freed through the sanitizer's `free`.
        .executableTarget(
            name: "fruitsite", dependencies: ["FruitsiteCLI"],
            linkerSettings: [
                .linkedLibrary("jemalloc", .when(platforms: [.linux], configuration: .release))
            ]),

        // MARK: - Tests
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "MustacheTests", dependencies: ["Mustache", "TestSupport"]),
        .testTarget(
            name: "FruitsiteCoreTests",
            // CVips: the picture tests make their sources with libvips.
            dependencies: ["FruitsiteCore", "CVips", "Mustache", "TestSupport"],
            exclude: ["Golden"]  // read from disk by path, so FRUITSITE_RECORD=1 can rewrite them
        ),
        .testTarget(
            name: "FruitsiteServeTests",
            dependencies: ["FruitsiteServe", "FruitsiteCore", "TestSupport"]),
        .testTarget(
            name: "FruitsiteCLITests",
            dependencies: ["FruitsiteCLI", "FruitsiteCore", "FruitsiteServe", "TestSupport"],
            exclude: ["Snapshots"]
        ),
    ]
)
