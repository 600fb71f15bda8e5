// swift-tools-version: 6.2
import PackageDescription

// Shared by every target: `any` spelled out for existentials inside our code, and imports
// that only make visible what a file really imports.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

// Tests are client code: they compile ported Teller-iOS/RxSwift code as users write it, so
// they don't opt into `ExistentialAny` (README code writes `Error`, not `any Error`).
let testSwiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("MemberImportVisibility")
]

let package = Package(
    name: "Teller",
    // Synchronization's `Atomic` sets the floor on Apple platforms.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "TellerRx", targets: ["TellerRx"]),
        .library(name: "Teller", targets: ["Teller"]),
        .library(name: "TellerTesting", targets: ["TellerTesting"]),
        .executable(name: "TellerBenchmarks", targets: ["TellerBenchmarks"]),
        .executable(name: "TellerExample", targets: ["TellerExample"]),
    ],
    targets: [
        .target(name: "TellerRx", swiftSettings: swiftSettings),
        .target(name: "Teller", dependencies: ["TellerRx"], swiftSettings: swiftSettings),
        .target(name: "TellerTesting", dependencies: ["TellerRx", "Teller"], swiftSettings: swiftSettings),
        .executableTarget(
            name: "TellerBenchmarks",
            dependencies: ["TellerRx", "Teller"],
            path: "Benchmarks",
            // A separate package (its own Package.swift), comparing TellerRx with OpenCombine.
            exclude: ["Peers"],
            swiftSettings: swiftSettings
        ),
        // `swift run TellerExample`: a command-line tour of a paging repository with a file cache.
        .executableTarget(
            name: "TellerExample",
            dependencies: ["TellerRx", "Teller"],
            path: "Examples/TellerExample",
            exclude: ["README.md", "sample-repos.json"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TellerRxTests",
            dependencies: ["TellerRx", "TellerTesting"],
            swiftSettings: testSwiftSettings
        ),
        // What the Teller and TellerTesting tests share: virtual-time Teller environments and
        // in-memory data sources.
        .target(
            name: "TellerTestSupport",
            dependencies: ["Teller", "TellerRx", "TellerTesting"],
            path: "Tests/TellerTestSupport",
            swiftSettings: testSwiftSettings
        ),
        .testTarget(
            name: "TellerTests",
            dependencies: [
                "Teller", "TellerRx", "TellerTesting", "TellerTestSupport", "TellerMetadataCrashWriter",
                "TellerProgramChild", "TellerExample",
            ],
            swiftSettings: testSwiftSettings
        ),
        // A child process for the durability test: writes metadata until it is killed.
        .executableTarget(
            name: "TellerMetadataCrashWriter",
            dependencies: ["Teller"],
            path: "Tests/TellerMetadataCrashWriter",
            swiftSettings: swiftSettings
        ),
        // A child process for the per-program defaults test (a tool on Teller's default files,
        // run under two names) and the two-process outbox test.
        .executableTarget(
            name: "TellerProgramChild",
            dependencies: ["Teller", "TellerRx"],
            path: "Tests/TellerProgramChild",
            swiftSettings: swiftSettings
        ),
        // The README's quick start and guides compiled as a new Xcode 26 app target compiles
        // them: main-actor default isolation and approachable concurrency.
        .testTarget(
            name: "TellerDefaultIsolationTests",
            dependencies: ["Teller", "TellerRx", "TellerTesting", "TellerTestSupport"],
            swiftSettings: testSwiftSettings + [
                .defaultIsolation(MainActor.self),
                .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
                .enableUpcomingFeature("InferIsolatedConformances"),
            ]
        ),
        .testTarget(
            name: "TellerTestingTests",
            dependencies: ["TellerTesting", "Teller", "TellerRx", "TellerTestSupport"],
            swiftSettings: testSwiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
