// swift-tools-version: 6.2
import PackageDescription

// TellerPeers: the emission workloads of TellerBenchmarks, run on TellerRx and on OpenCombine in
// one process. A separate package so that the Teller package itself keeps no dependencies.
let package = Package(
    name: "TellerPeers",
    // TellerRx's floor (Synchronization's `Atomic`); Linux has none.
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "TellerPeers", targets: ["TellerPeers"])
    ],
    dependencies: [
        .package(name: "Teller", path: "../.."),
        .package(url: "https://github.com/OpenCombine/OpenCombine.git", exact: "0.14.0"),
    ],
    targets: [
        .executableTarget(
            name: "TellerPeers",
            dependencies: [
                .product(name: "TellerRx", package: "Teller"),
                .product(name: "OpenCombine", package: "OpenCombine"),
            ],
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("MemberImportVisibility"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
