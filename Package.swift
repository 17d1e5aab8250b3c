// swift-tools-version:6.0
import PackageDescription

/// The pixel loops (colour conversion, filters) are written to be vectorised. Baseline x86-64 is
/// SSE2, which has no 32-bit vector multiply; x86-64-v2 (SSE4.2: every x86 server CPU since
/// 2009) has, and made the sepia pass 1.7× and the colour conversion 1.5× faster here.
#if arch(x86_64)
let pixelLoopFlags: [SwiftSetting] = [.unsafeFlags(["-target-cpu", "nehalem"])]
#else
let pixelLoopFlags: [SwiftSetting] = []
#endif

/// OpenVINO's C headers, laid out by `make deps` (deps/openvino.py) in the build folder. The library
/// itself is loaded at run time (`COpenVINO`'s shim: dlopen), so nothing links it.
let openVINOInclude: [SwiftSetting] = [.unsafeFlags(["-Xcc", "-I\(Context.packageDirectory)/.build/openvino/include"])]

let package = Package(
    name: "FilterCast",
    products: [
        .executable(name: "filtercast", targets: ["filtercast"]),
        .library(name: "FilterKit", targets: ["FilterKit"]),
        .library(name: "MediaKit", targets: ["MediaKit"]),
        // For the libFuzzer targets in Tests/Fuzz.
        .library(name: "CastProtocol", targets: ["CastProtocol"]),
        .library(name: "CastServer", targets: ["CastServer"]),
    ],
    targets: [
        // System libraries: one target per C library family, macros re-exported by shim headers.
        .systemLibrary(
            name: "CFFmpeg",
            pkgConfig: "libavformat",
            providers: [.apt(["libavcodec-dev", "libavformat-dev", "libavdevice-dev", "libswscale-dev", "libswresample-dev", "libavfilter-dev", "libavutil-dev"])]
        ),
        // OpenVINO's C API (the style filter's runtime), loaded with dlopen by the shim.
        .systemLibrary(name: "COpenVINO"),
        // Linux's V4L2 header (no library): the capture-device ioctls for `filtercast devices`.
        .systemLibrary(name: "CV4L2"),
        .systemLibrary(
            name: "CTurboJPEG",
            pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"])]
        ),
        .systemLibrary(
            name: "CWebSockets",
            pkgConfig: "libwebsockets",
            providers: [.apt(["libwebsockets-dev"])]
        ),

        // Pure Swift: frames, colour normalisation and filters. No C imports.
        .target(name: "FilterKit", swiftSettings: pixelLoopFlags),

        // The style filter: neural style transfer through OpenVINO, registered into a catalog when the
        // runtime loads (FilterKit stays pure Swift).
        .target(name: "StyleKit", dependencies: ["FilterKit", "MediaKit", "Logging", "COpenVINO"],
                swiftSettings: openVINOInclude + pixelLoopFlags),

        // The person matte: MediaPipe's selfie segmentation through StyleKit's OpenVINO runtime, made
        // once per frame per thread, and the filters that use it (`matte`, `backgroundBlur`, `backgroundReplace`).
        .target(name: "MatteKit", dependencies: ["FilterKit", "StyleKit", "MediaKit", "Logging", "COpenVINO"],
                swiftSettings: openVINOInclude + pixelLoopFlags),

        // Lock-free counters, gauges and histograms, and the registry that renders them for /metrics.
        .target(name: "Telemetry"),

        // The one logger: every line on standard error (and the ready line on standard output),
        // text or JSON, from any thread; FFmpeg's and libwebsockets' lines are routed through it.
        .target(name: "Logging"),

        // Sources, decoding, pacing, JPEG encoding and the frame pipeline.
        .target(name: "MediaKit", dependencies: ["FilterKit", "Telemetry", "Logging", "CFFmpeg", "CTurboJPEG", "CV4L2"]),

        // Protocol v1: message types, parsing, validation, frame header. Pure Swift, no sockets.
        .target(name: "CastProtocol", dependencies: ["FilterKit"]),

        // The server: session, broadcaster, libwebsockets transport, HTTP endpoints.
        .target(name: "CastServer", dependencies: ["CastProtocol", "MediaKit", "FilterKit", "Telemetry", "Logging", "CWebSockets"]),

        .executableTarget(name: "filtercast", dependencies: ["FilterKit", "MediaKit", "CastProtocol", "CastServer", "Logging", "StyleKit", "MatteKit"],
                         swiftSettings: openVINOInclude),

        .testTarget(name: "FilterKitTests", dependencies: ["FilterKit"]),
        .testTarget(name: "StyleKitTests", dependencies: ["StyleKit", "FilterKit"], swiftSettings: openVINOInclude),
        .testTarget(name: "MatteKitTests", dependencies: ["MatteKit", "StyleKit", "FilterKit", "MediaKit"], swiftSettings: openVINOInclude),
        .testTarget(name: "TelemetryTests", dependencies: ["Telemetry"]),
        .testTarget(name: "LoggingTests", dependencies: ["Logging"]),
        .testTarget(name: "MediaKitTests", dependencies: ["MediaKit", "FilterKit", "CTurboJPEG", "CFFmpeg"]),
        .testTarget(name: "ShimTests", dependencies: ["CFFmpeg", "CTurboJPEG", "CWebSockets"]),
        .testTarget(name: "CastProtocolTests", dependencies: ["CastProtocol", "FilterKit"]),
        .testTarget(name: "CastServerTests", dependencies: ["CastServer", "CastProtocol", "MediaKit", "FilterKit"]),
        .testTarget(name: "FilterCastCLITests", dependencies: ["filtercast", "CastProtocol"], swiftSettings: openVINOInclude),
    ],
    swiftLanguageModes: [.v6]
)
