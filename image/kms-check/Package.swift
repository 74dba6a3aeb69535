// swift-tools-version: 6.1
import PackageDescription

// kms-check: a tiny KMS client built from the repo's own ZapperDisplay, for the
// proof run in QEMU (image/build, image/run-kms-check). Not part of the product.
let package = Package(
    name: "KMSCheck",
    targets: [
        .systemLibrary(name: "CDRM", pkgConfig: "libdrm", providers: [.apt(["libdrm-dev"])]),
        .target(name: "ZapperCore"),
        .target(name: "ZapperDisplay", dependencies: ["CDRM", "ZapperCore"]),
        .executableTarget(name: "kms-check", dependencies: ["ZapperCore", "ZapperDisplay"]),
    ]
)
