// swift-tools-version: 6.2
import PackageDescription

// TellerGRDB: a RepositoryDataSource whose cache lives in a SQLite database through GRDB, observed
// with GRDB's ValueObservation. A separate package so that the Teller package itself keeps no
// dependencies. Needs SQLite's headers on Linux (Debian: libsqlite3-dev).
let package = Package(
    name: "TellerGRDB",
    // Teller's floor (Synchronization's `Atomic`).
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "TellerGRDB", targets: ["TellerGRDB"])
    ],
    dependencies: [
        .package(name: "Teller", path: "../.."),
        .package(url: "https://github.com/groue/GRDB.swift.git", exact: "7.10.0"),
    ],
    targets: [
        .target(
            name: "TellerGRDB",
            dependencies: [
                .product(name: "Teller", package: "Teller"),
                .product(name: "TellerRx", package: "Teller"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("MemberImportVisibility"),
            ]
        ),
        .testTarget(
            name: "TellerGRDBTests",
            dependencies: [
                "TellerGRDB",
                .product(name: "Teller", package: "Teller"),
                .product(name: "TellerRx", package: "Teller"),
                .product(name: "TellerTesting", package: "Teller"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
