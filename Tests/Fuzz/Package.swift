// swift-tools-version:6.0
// libFuzzer targets (issue 8): built by `make fuzz` with `-sanitize=fuzzer,address`, which
// instruments FilterCast's own modules too. Not part of the main package: without libFuzzer's
// driver (LLVMFuzzerRunDriver) these executables do not link.
import PackageDescription

// GNU gold fails on the sanitizers' debug info ("internal error in format_file_lineno"); lld links.
let linker: [LinkerSetting] = [.unsafeFlags(["-use-ld=lld"])]

let package = Package(
    name: "FilterCastFuzz",
    dependencies: [.package(name: "FilterCast", path: "../..")],
    targets: [
        .target(name: "CLibFuzzer"),
        .target(name: "FuzzMessages", dependencies: [.product(name: "CastProtocol", package: "FilterCast")]),
        .executableTarget(name: "FuzzCommands", dependencies: ["CLibFuzzer", "FuzzMessages",
            .product(name: "CastProtocol", package: "FilterCast"), .product(name: "FilterKit", package: "FilterCast"),
        ], linkerSettings: linker),
        .executableTarget(name: "FuzzComments", dependencies: ["CLibFuzzer", "FuzzMessages",
            .product(name: "CastProtocol", package: "FilterCast"), .product(name: "FilterKit", package: "FilterCast"),
        ], linkerSettings: linker),
        .executableTarget(name: "FuzzFilterSettings", dependencies: ["CLibFuzzer", .product(name: "FilterKit", package: "FilterCast")],
                          linkerSettings: linker),
        .executableTarget(name: "FuzzStaticPaths", dependencies: ["CLibFuzzer", .product(name: "CastServer", package: "FilterCast")],
                          linkerSettings: linker),
        .executableTarget(name: "FuzzCubeParser", dependencies: ["CLibFuzzer", .product(name: "FilterKit", package: "FilterCast")],
                          linkerSettings: linker),
        .executableTarget(name: "FuzzLookParser", dependencies: ["CLibFuzzer",
            .product(name: "CastProtocol", package: "FilterCast"), .product(name: "FilterKit", package: "FilterCast"),
        ], linkerSettings: linker),
        .executableTarget(name: "FuzzIngest", dependencies: ["CLibFuzzer", .product(name: "CastProtocol", package: "FilterCast")],
                          linkerSettings: linker),
        .executableTarget(name: "FuzzBrowserSource", dependencies: ["CLibFuzzer",
            .product(name: "MediaKit", package: "FilterCast"), .product(name: "FilterKit", package: "FilterCast"),
        ], linkerSettings: linker),
        .executableTarget(name: "FuzzStillPicture", dependencies: ["CLibFuzzer",
            .product(name: "MediaKit", package: "FilterCast"), .product(name: "FilterKit", package: "FilterCast"),
        ], linkerSettings: linker),
        .executableTarget(name: "FuzzKeptPicture", dependencies: ["CLibFuzzer",
            .product(name: "MediaKit", package: "FilterCast"), .product(name: "FilterKit", package: "FilterCast"),
        ], linkerSettings: linker),
        .executableTarget(name: "FuzzUploadProbe", dependencies: ["CLibFuzzer", .product(name: "MediaKit", package: "FilterCast")],
                          linkerSettings: linker),
    ],
    swiftLanguageModes: [.v6]
)
