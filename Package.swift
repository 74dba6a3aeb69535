// swift-tools-version: 6.1
import PackageDescription

// Each C library is reached through exactly one system-library module (a
// module map plus a shim header for macros Swift cannot import), and each of
// those modules is imported by exactly one backend target. ZapperCore holds
// the product's rules and imports none of them.

// `-O` in debug builds as in release, for the targets whose loops run over every pixel or
// sample (the overlay's blend, loudness levelling, the picture watch): unoptimised, they cost
// the debug player 2x its CPU (a core at 1920x1080), and the tests run debug builds side by
// side on two cores (TestSupport: the tests' own pixel medians and tone detectors; UITests:
// their checks of every pixel, which unoptimised held both of the test process's cooperative
// threads for 20 s and more, so that the loopback tests beside them missed their deadlines).
// `-enable-testing` stays (debug builds pass it): `@testable import` works.
let optimisedInDebug: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

let package = Package(
    name: "Zapper",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "zapper", targets: ["zapper"]),
        .executable(name: "zapper-origin", targets: ["zapper-origin"]),
        .executable(name: "zapper-bench", targets: ["zapper-bench"]),
        .executable(name: "zapper-caption-encode", targets: ["zapper-caption-encode"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/LebJe/TOMLKit.git", from: "0.6.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.0.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
    ],
    targets: [
        // C libraries (Debian -dev packages; see the Makefile's DEB_PACKAGES).
        .systemLibrary(name: "CFFmpeg", pkgConfig: "libavformat",
                       providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev",
                                         "libswscale-dev", "libswresample-dev", "libavfilter-dev"])]),
        .systemLibrary(name: "CDRM", pkgConfig: "libdrm", providers: [.apt(["libdrm-dev"])]),
        .systemLibrary(name: "CInput", pkgConfig: "libevdev",
                       providers: [.apt(["libinput-dev", "libudev-dev", "libevdev-dev"])]),
        .systemLibrary(name: "CALSA", pkgConfig: "alsa", providers: [.apt(["libasound2-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CCairo", pkgConfig: "pangocairo",
                       providers: [.apt(["libcairo2-dev", "libpango1.0-dev"])]),
        // SDL2's headers only: zapper opens libSDL2 when a window is asked for (ZapperWindow's SDLLibrary).
        .systemLibrary(name: "CSDL2", providers: [.apt(["libsdl2-dev"])]),
        .systemLibrary(name: "CMosquitto", pkgConfig: "libmosquitto", providers: [.apt(["libmosquitto-dev"])]),
        .systemLibrary(name: "CQREncode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        // jemalloc as zapper's allocator (Debian's libjemalloc), with the settings zapper builds in.
        .target(name: "CJemalloc", linkerSettings: [.linkedLibrary("jemalloc")]),

        // The product's rules: pure Swift, no C module.
        .target(name: "ZapperCore", swiftSettings: optimisedInDebug),

        // Backends: one concern each, each the only user of its C module.
        .target(name: "ZapperMedia", dependencies: ["CFFmpeg", "ZapperCore"]),
        .target(name: "ZapperDisplay", dependencies: ["CDRM", "ZapperCore"]),
        .target(name: "ZapperInput", dependencies: ["CInput", "ZapperCore"]),
        .target(name: "ZapperAudio", dependencies: ["CALSA", "ZapperCore"]),
        .target(name: "ZapperUI", dependencies: ["CCairo", "CQREncode", "ZapperCore"], swiftSettings: optimisedInDebug),
        // A window on a desktop (SDL2) as the display, its keyboard as an input.
        .target(name: "ZapperWindow", dependencies: ["CSDL2", "ZapperCore"]),

        // A fleet's MQTT broker (Home Assistant): libmosquitto's client on its own thread.
        .target(name: "ZapperMQTT", dependencies: ["CMosquitto", "ZapperCore"]),

        // The programme guide: XMLTV read streaming (libxml2's SAX push parser), gzip with zlib.
        .target(name: "ZapperGuide", dependencies: ["ZapperCore", "CZlib", "CLibXML2"]),

        // Our own live HLS client: playlists, segments, variant choice (AsyncHTTPClient);
        // TLS verified by swift-nio-ssl (system trust store, plus a private CA file);
        // AES-128 segments decrypted as they stream (swift-crypto's AES-CBC).
        .target(name: "ZapperHLS", dependencies: [
            "ZapperCore", .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"), .product(name: "NIOTLS", package: "swift-nio"),
            .product(name: "_CryptoExtras", package: "swift-crypto"),
        ]),

        // Settings on disk: the state file (atomic, durable writes), the TOML
        // configuration file (TOMLKit) and the parental PIN's hash (SHA-256).
        .target(name: "ZapperSettings", dependencies: [
            "ZapperCore", "TOMLKit", .product(name: "Crypto", package: "swift-crypto"),
        ]),

        // The player: the frame loop, the audio thread, the event log and automation.
        // It reaches the world only through ports (ZapperCore's protocols): no backend here.
        .target(name: "ZapperPlayer", dependencies: ["ZapperCore"]),

        // What the player's ports are made of on a box: channels fetched by our HLS client
        // and decoded by FFmpeg, the screen composed with Cairo, guides and logos over HTTP.
        .target(name: "ZapperEngine", dependencies: [
            "ZapperCore", "ZapperHLS", "ZapperMedia", "ZapperUI", "ZapperGuide",
        ]),

        // A fleet's view of the box: metrics (swift-metrics, exposed by swift-prometheus's registry)
        // and the small HTTP listener (SwiftNIO) that serves them at GET /metrics.
        .target(name: "ZapperMetrics", dependencies: [
            "ZapperCore",
            .product(name: "Metrics", package: "swift-metrics"),
            .product(name: "Prometheus", package: "swift-prometheus"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "Crypto", package: "swift-crypto"),
        ], exclude: ["README.md"]),

        // The demo/test origin: a live HLS server on loopback, also over TLS (swift-nio-ssl)
        // with a certificate the test makes (AES-128 demo: swift-crypto).
        .target(name: "OriginKit", dependencies: [
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "_CryptoExtras", package: "swift-crypto"),
        ]),

        // Executables: wiring only.
        .executableTarget(name: "zapper", dependencies: [
            "ZapperCore", "ZapperPlayer", "ZapperEngine", "ZapperMedia", "ZapperDisplay", "ZapperInput", "ZapperAudio", "ZapperUI",
            "ZapperSettings", "ZapperHLS", "ZapperWindow", "ZapperMetrics", "ZapperMQTT", "CJemalloc",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ], exclude: ["README.md"]),
        .executableTarget(name: "zapper-origin", dependencies: [
            "OriginKit",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ], exclude: ["README.md"]),
        // The demo origin's encoder of its captions channel (CEA-608 in the H.264 SEI), run by its encode step.
        .executableTarget(name: "zapper-caption-encode", dependencies: ["ZapperMedia"]),
        // Every parser of outside bytes as one fuzz target each (`make fuzz`, `zapper-fuzz` below).
        .target(name: "ZapperFuzzTargets", dependencies: ["ZapperCore", "ZapperGuide", "ZapperSettings", "ZapperUI"]),
        // For the kill -9 test of the state file: saves without pause until killed.
        .executableTarget(name: "zapper-state-writer", dependencies: ["ZapperCore", "ZapperSettings"]),
        // Benchmarks that report, never assert: they start and measure the real binaries.
        .executableTarget(name: "zapper-bench", dependencies: [
            "ZapperCore", "ZapperSettings", "ZapperMetrics", "TestSupport", .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ], exclude: ["README.md"]),

        .testTarget(name: "ZapperCoreTests", dependencies: [
            "ZapperCore", .product(name: "PropertyBased", package: "swift-property-based"),
        ]),
        // Helpers for tests only: a zapper-origin child process, a raw HTTP
        // client that sees resets, running tools, tone detection, a Mosquitto broker and a subscriber.
        .target(name: "TestSupport", dependencies: ["OriginKit", "ZapperCore", "ZapperMedia"], swiftSettings: optimisedInDebug),
        .testTarget(name: "BackendTests", dependencies: [
            "ZapperCore", "ZapperMedia", "ZapperDisplay", "ZapperInput", "ZapperAudio", "ZapperUI", "TestSupport", "OriginKit",
        ]),
        .testTarget(name: "MetricsTests", dependencies: [
            "ZapperCore", "ZapperMetrics", "TestSupport", .product(name: "Prometheus", package: "swift-prometheus"),
        ]),
        .testTarget(name: "OriginTests", dependencies: ["OriginKit", "TestSupport"]),
        .testTarget(name: "PlayerTests", dependencies: ["ZapperCore", "ZapperPlayer", "ZapperEngine", "ZapperHLS", "ZapperMedia", "ZapperUI", "ZapperDisplay", "TestSupport", "OriginKit"]),
        .testTarget(name: "UITests", dependencies: ["ZapperCore", "ZapperUI", "TestSupport"], exclude: ["Goldens"],
                    swiftSettings: optimisedInDebug),
        .testTarget(name: "DisplayTests", dependencies: ["ZapperCore", "ZapperDisplay"]),
        .testTarget(name: "GuideTests", dependencies: ["ZapperCore", "ZapperGuide", "OriginKit", "TestSupport"]),
        .testTarget(name: "InputTests", dependencies: ["ZapperCore", "ZapperInput", "TestSupport"]),
        // The window under a real X server (Xvfb): the real zapper, screenshots, keys by XTEST.
        .testTarget(name: "WindowTests", dependencies: ["CSDL2", "ZapperCore", "ZapperInput", "ZapperWindow", "TestSupport", "OriginKit"]),
        .testTarget(name: "SettingsTests", dependencies: ["ZapperSettings", "ZapperCore", "TestSupport"]),
        // FleetLink against a real Mosquitto broker (TestSupport starts it), with the player's side played by the test.
        .testTarget(name: "MQTTTests", dependencies: ["ZapperMQTT", "ZapperCore", "TestSupport"]),
        .testTarget(name: "HLSTests", dependencies: ["ZapperHLS", "ZapperMedia", "ZapperCore", "TestSupport", "OriginKit"]),
        .testTarget(name: "FuzzTests", dependencies: ["ZapperFuzzTargets"], exclude: ["Seeds", "Regressions", "run-fuzz"]),
    ]
)

// `make fuzz` (ZAPPER_FUZZ=1, built with --sanitize=fuzzer): the libFuzzer targets of every
// parser that reads bytes from outside. Left out of ordinary builds: libFuzzer brings its main.
if Context.environment["ZAPPER_FUZZ"] == "1" {
    package.products.append(.executable(name: "zapper-fuzz", targets: ["zapper-fuzz"]))
    package.targets.append(.executableTarget(
        name: "zapper-fuzz", dependencies: ["ZapperFuzzTargets"],
        swiftSettings: [.unsafeFlags(["-parse-as-library"])]))
}
