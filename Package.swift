// swift-tools-version: 6.1
import PackageDescription

// The targets, in dependency order:
//   CMalloc      glibc's <malloc.h>, which its Swift module leaves out (`mallopt`)
//   CLinux       Linux calls Glibc's Swift module can not make (`userfaultfd`, its ioctl numbers)
//   SystemCalls  the one Swift target that calls the C library for the system: files, directories, memory maps
//                and madvise, fault-around, pthread locks and threads, signals, clocks, the terminal, the
//                environment, the allocator's settings (arenas, large blocks); each call's return code and errno
//                become a thrown `SystemError` in one place
//   CLMDB        the C boundary: LMDB as Debian's liblmdb-dev ships it
//   CLMDBGuard   LMDB's calls that walk pages, made so that LMDB's assertion handler can return from them with an
//                error instead of aborting (a page a cut data file no longer has, mended with zeros: `MapFaults`)
//   LMDB         a thin Swift wrapper: environments, transactions, databases, cursors, typed errors, and when
//                mapped pages are let go (`PageRelease`)
//   StrictJSON   the interchange form: a strict JSON parser and the RFC 8785 canonical writer
//   CSHA256      SHA-256 with the x86-64 SHA extensions, for the hashes `log verify` makes of every event
//   Domain       the event catalogue: event types, their field rules and field lists, the rules that need history,
//                and the words the library's callers use (the gate's refusals, as-of points, log heads, filters)
//   EventLog     the append-only log over LMDB: seq, ids, the hash chain, and the stored form (StoredForm/)
//   Projections  the read models: one projector per view over typed, cached records (`Models`), the scan
//                list kept by a strategy the engine picks (written, checked by a rebuild, borrowed by a
//                replay), and every query of the spec
//   Proofs       the RFC 6962 Merkle tree over the log, signed checkpoints and proofs (proofs.md)
//   GazetteerData the gazetteer's data, embedded in the binary
//   ServedFiles  the web dashboard's files (server.md §9), embedded in the binary
//   Geocoding    the offline gazetteer (GeoNames cities) that places a customer's city
//   Engine       one store: appends through the rules and the models in one transaction, rebuilds and replays
//                through one loop, answers queries
//   VeritrailKit the library (product `Veritrail`): a store, every command and query, import, audit and proofs,
//                typed errors; it re-exports Domain and StrictJSON, the words its API speaks
//   VeritrailCLI the `veritrail` commands: parse, call VeritrailKit, render (it imports nothing else of the engine)
//   VeritrailClient `--server URL`: the command line as a client of `veritrail serve` over AsyncHTTPClient, handed
//                to the CLI by the executable (VeritrailCLI itself links no SwiftNIO)
//   VeritrailServer `veritrail serve`: the HTTP API of server.md on Hummingbird; like the CLI it parses, calls
//                VeritrailKit, renders; the `veritrail` executable adds its `serve` command to the CLI's root, so
//                that the CLI itself never links SwiftNIO
/// Strictness on every target, as swift-log does: `any` spelled out, members visible only through the modules a
/// file imports, and imports internal unless a file says `public import`.
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// Release builds optimise across modules, so that the generic field readers and writers of `Domain` are
/// specialised where `EventLog` (the stored form), `Projections` and `Engine` use them, instead of running
/// through witness tables.
let optimized: [SwiftSetting] = strict + [.unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))]

/// How the release binary is linked, for a quicker start of every command (each query is a process; docs/SCALE.md,
/// "Process start"): lld, so that the relative relocations are packed (`DT_RELR`, glibc 2.36) rather than 136,000
/// entries of `.rela.dyn` read at each start, and no symbol exported (the toolchain's static-stdlib flags add
/// `-export-dynamic`, and the runtime's `dladdr` at start walked all 44,000 of them). Still a position-independent
/// executable: `veritrail serve` is the same binary, and keeps its address space randomised.
let quickStart: [LinkerSetting] = [.unsafeFlags(
    ["-use-ld=lld", "-Xlinker", "--no-export-dynamic", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"],
    .when(configuration: .release))]

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
        // The server (server.md): Hummingbird without its swift-configuration trait, swift-log for the access
        // log, swift-service-lifecycle for SIGTERM/SIGINT, swift-metrics and swift-prometheus for /metrics.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        // The command line as a client of a served store (server.md §8): its HTTP transport.
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    ],
    targets: [
        .systemLibrary(name: "CLMDB", pkgConfig: "lmdb", providers: [.apt(["liblmdb-dev"])]),
        // glibc's allocator settings (`mallopt`), which its Swift module does not export.
        .systemLibrary(name: "CMalloc"),
        // Linux calls Glibc's Swift module can not make (`userfaultfd`, its ioctl numbers).
        .systemLibrary(name: "CLinux"),
        .target(name: "SystemCalls", dependencies: ["CMalloc", "CLinux"], swiftSettings: strict),
        .target(name: "CLMDBGuard", dependencies: ["CLMDB"]),
        .target(name: "LMDB", dependencies: ["CLMDB", "CLMDBGuard", "SystemCalls"], swiftSettings: optimized),
        .target(name: "StrictJSON", swiftSettings: optimized),
        // SHA-256 with the x86-64 SHA extensions, called straight from `log verify`'s hashes (swift-crypto otherwise).
        .target(name: "CSHA256"),
        .target(name: "Domain", dependencies: ["StrictJSON"], swiftSettings: optimized),
        .target(name: "EventLog", dependencies: [
            "LMDB", "Domain", "StrictJSON", "SystemCalls", "CSHA256",
            .product(name: "Crypto", package: "swift-crypto"),
        ], swiftSettings: optimized),
        .target(name: "Projections", dependencies: [
            "Domain", "EventLog", "LMDB", "StrictJSON", "SystemCalls",
            .product(name: "Crypto", package: "swift-crypto"),
        ], swiftSettings: optimized),
        .target(name: "Proofs", dependencies: [
            "LMDB", "Domain", "EventLog", "SystemCalls",
            .product(name: "Crypto", package: "swift-crypto"),
        ], swiftSettings: optimized),
        // The gazetteer's TSVs are compiled into the binary by GazetteerData (C23 #embed), not shipped beside it.
        .target(name: "GazetteerData"),
        // The dashboard's HTML, CSS and JavaScript, which the server sends as they are, compiled in likewise.
        .target(name: "ServedFiles", exclude: ["dashboard"]),
        .target(name: "Geocoding", dependencies: ["GazetteerData", "SystemCalls"], exclude: ["Resources"], swiftSettings: strict),
        .target(name: "Engine", dependencies: [
            "Domain", "EventLog", "Projections", "Proofs", "LMDB", "StrictJSON", "SystemCalls",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "_CryptoExtras", package: "swift-crypto"),
        ], swiftSettings: optimized),
        // The command line reaches the engine only through the library: it parses, calls VeritrailKit, renders;
        // SystemCalls gives it the terminal and its standard streams.
        .target(name: "VeritrailCLI", dependencies: [
            "VeritrailKit", "SystemCalls", .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ], swiftSettings: strict),
        .target(name: "VeritrailKit", dependencies: ["Domain", "Engine", "EventLog", "Geocoding", "LMDB", "Projections", "Proofs", "StrictJSON", "SystemCalls"],
                swiftSettings: strict),
        .target(name: "VeritrailServer", dependencies: [
            "VeritrailKit", "SystemCalls", "ServedFiles",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdTLS", package: "hummingbird"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "Metrics", package: "swift-metrics"),
            .product(name: "Prometheus", package: "swift-prometheus"),
        ], resources: [.embedInCode("Resources/openapi.json")], swiftSettings: strict),
        // `--server URL` (server.md §8): the HTTP transport, the token file and the route of each command, which
        // the `veritrail` executable hands to the command line (`Remote`), so that VeritrailCLI links no SwiftNIO.
        .target(name: "VeritrailClient", dependencies: [
            "VeritrailCLI", "VeritrailKit", "SystemCalls",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
        ], swiftSettings: strict),
        .executableTarget(name: "veritrail", dependencies: ["VeritrailCLI", "VeritrailServer", "VeritrailClient"], swiftSettings: strict,
                          linkerSettings: quickStart),
        .executableTarget(name: "veritrail-bench", dependencies: ["Domain", "EventLog", "Engine", "Projections", "SystemCalls"], swiftSettings: strict),
        .testTarget(name: "SystemCallsTests", dependencies: ["SystemCalls", "CMalloc"], swiftSettings: strict),
        .testTarget(name: "LMDBTests", dependencies: ["LMDB", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "GeocodingTests", dependencies: ["Geocoding"], exclude: ["fold_vectors.tsv"], swiftSettings: strict),
        .testTarget(name: "StrictJSONTests", dependencies: ["StrictJSON"], exclude: ["vectors.json"], swiftSettings: strict),
        .testTarget(name: "ProofTests", dependencies: [
            "Proofs", "Engine", "EventLog", "LMDB", "Domain", .product(name: "Crypto", package: "swift-crypto"),
        ], swiftSettings: strict),
        // Helpers shared by several test targets: event lines, the log and its models in memory, and what the kernel
        // says of a mapped file.
        .target(name: "TestSupport", dependencies: ["Domain", "Projections", "StrictJSON"], path: "Tests/TestSupport", swiftSettings: strict),
        // The pure layers in-process (Swift Testing): the stored order of the word lists, the lockout timeline,
        // the rules, each projector and a replay over the borrowed scan list against the models in memory.
        .testTarget(name: "DomainTests", dependencies: ["Domain", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "ProjectionTests", dependencies: ["Domain", "EventLog", "Projections", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "VeritrailTests", dependencies: ["Domain", "Engine", "EventLog", "LMDB", "Projections", "StrictJSON",
                                                           "TestSupport", "VeritrailCLI"], swiftSettings: strict),
        // The library as a program outside the package sees it: its public API only, and the README's example.
        // Without MemberImportVisibility, as a program that depends on the package would be built: it writes
        // `import VeritrailKit` alone, and the types the library's API uses come with it.
        .testTarget(name: "LibraryTests", dependencies: ["VeritrailKit"], swiftSettings: [
            .enableUpcomingFeature("ExistentialAny"), .enableUpcomingFeature("InternalImportsByDefault"),
        ]),
    ]
)
