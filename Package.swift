// swift-tools-version: 6.1
import PackageDescription

// The targets, in dependency order:
//   CLMDB        the C boundary: LMDB as Debian's liblmdb-dev ships it
//   LMDB         a thin Swift wrapper: environments, transactions, databases, cursors, typed errors, and when
//                mapped pages are let go (`PageRelease`)
//   StrictJSON   the interchange form: a strict JSON parser and the RFC 8785 canonical writer
//   Domain       the event catalogue: event types, their field rules and field lists, the rules that need history
//   EventLog     the append-only log over LMDB: seq, ids, the hash chain, and the stored form (StoredForm/)
//   Projections  the read models: one projector per view over typed, cached records (`Models`), the scan
//                list kept by a strategy the engine picks (written, checked by a rebuild, borrowed by a
//                replay), and every query of the spec
//   Proofs       the RFC 6962 Merkle tree over the log, signed checkpoints and proofs (proofs.md)
//   GazetteerData the gazetteer's data, embedded in the binary
//   Geocoding    the offline gazetteer (GeoNames cities) that places a customer's city
//   Engine       one store: appends through the rules and the models in one transaction, rebuilds and replays
//                through one loop, answers queries
//   VeritrailCLI the `veritrail` commands (parsing and rendering only)
//   VeritrailKit the library (product `Veritrail`): a store, every command and query, typed errors
/// Release builds optimise across modules, so that the generic field readers and writers of `Domain` are
/// specialised where `EventLog` (the stored form), `Projections` and `Engine` use them, instead of running
/// through witness tables.
let optimized: [SwiftSetting] = [.unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))]

let package = Package(
    name: "Veritrail",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "veritrail", targets: ["veritrail"]),
        .library(name: "Veritrail", targets: ["VeritrailKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
    ],
    targets: [
        .systemLibrary(name: "CLMDB", pkgConfig: "lmdb", providers: [.apt(["liblmdb-dev"])]),
        .target(name: "LMDB", dependencies: ["CLMDB"], swiftSettings: optimized),
        .target(name: "StrictJSON", swiftSettings: optimized),
        .target(name: "Domain", dependencies: ["StrictJSON"], swiftSettings: optimized),
        .target(name: "EventLog", dependencies: [
            "LMDB", "Domain", "StrictJSON",
            .product(name: "Crypto", package: "swift-crypto"),
        ], swiftSettings: optimized),
        .target(name: "Projections", dependencies: [
            "Domain", "EventLog", "LMDB", "StrictJSON",
            .product(name: "Crypto", package: "swift-crypto"),
        ], swiftSettings: optimized),
        .target(name: "Proofs", dependencies: [
            "LMDB", "Domain", "EventLog",
            .product(name: "Crypto", package: "swift-crypto"),
        ], swiftSettings: optimized),
        // The gazetteer's TSVs are compiled into the binary by GazetteerData (C23 #embed), not shipped beside it.
        .target(name: "GazetteerData"),
        .target(name: "Geocoding", dependencies: ["GazetteerData"], exclude: ["Resources"]),
        .target(name: "Engine", dependencies: [
            "Domain", "EventLog", "Projections", "Proofs", "LMDB", "StrictJSON",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "_CryptoExtras", package: "swift-crypto"),
        ], swiftSettings: optimized),
        .target(name: "VeritrailCLI", dependencies: [
            "Domain", "Engine", "EventLog", "Geocoding", "Projections", "Proofs", "StrictJSON",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "_CryptoExtras", package: "swift-crypto"),
        ]),
        .target(name: "VeritrailKit", dependencies: ["Domain", "Engine", "EventLog", "LMDB", "Projections", "StrictJSON"]),
        .executableTarget(name: "veritrail", dependencies: ["VeritrailCLI"]),
        .executableTarget(name: "veritrail-bench", dependencies: ["Domain", "EventLog", "Engine", "Projections"]),
        .testTarget(name: "LMDBTests", dependencies: ["LMDB"]),
        .testTarget(name: "GeocodingTests", dependencies: ["Geocoding"], exclude: ["fold_vectors.tsv"]),
        .testTarget(name: "StrictJSONTests", dependencies: ["StrictJSON"], exclude: ["vectors.json"]),
        .testTarget(name: "ProofTests", dependencies: [
            "Proofs", "Engine", "EventLog", "LMDB", "Domain", .product(name: "Crypto", package: "swift-crypto"),
        ]),
        // Helpers shared by several test targets: event lines, and the log and its models in memory.
        .target(name: "TestSupport", dependencies: ["Domain", "Projections", "StrictJSON"], path: "Tests/TestSupport"),
        // The pure layers in-process (Swift Testing): the stored order of the word lists, the lockout timeline,
        // the rules, each projector and a replay over the borrowed scan list against the models in memory.
        .testTarget(name: "DomainTests", dependencies: ["Domain", "TestSupport"]),
        .testTarget(name: "ProjectionTests", dependencies: ["Domain", "EventLog", "Projections", "TestSupport"]),
        .testTarget(name: "VeritrailTests", dependencies: ["Domain", "Engine", "EventLog", "LMDB", "Projections", "StrictJSON",
                                                           "TestSupport", "VeritrailCLI"]),
        // The library as a program outside the package sees it: its public API only, and the README's example.
        .testTarget(name: "LibraryTests", dependencies: ["VeritrailKit"]),
    ]
)
