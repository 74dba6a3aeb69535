import Foundation
import Testing
import ZapperCore
import ZapperUI

/// Content, logos and a stand-in video picture shared by the overlay tests.
enum Fixtures {
    static let sizes = [(1280, 720), (1920, 1080)]

    /// A channel logo as a broadcaster would publish it: a wordmark on a coloured, rounded plate.
    static let logoPNG: [UInt8] = {
        let wordmark = TextRaster.render("NOVA", font: "DejaVu Sans Bold 72")
        let width = 360, height = 200
        var logo = ARGBImage(width: width, height: height, stride: width * 4, pixels: Array(repeating: 0, count: width * height * 4))
        let radius = 36.0
        for y in 0..<height {
            for x in 0..<width {
                // A rounded plate with a diagonal magenta-to-orange gradient.
                let dx = max(radius - Double(x), Double(x) - Double(width - 1) + radius, 0)
                let dy = max(radius - Double(y), Double(y) - Double(height - 1) + radius, 0)
                guard dx * dx + dy * dy <= radius * radius else { continue }
                let t = Double(x + y) / Double(width + height)
                let red = UInt32(220 + 35 * t), green = UInt32(40 + 110 * t), blue = UInt32(140 - 120 * t)
                var pixel = 0xFF00_0000 | red << 16 | green << 8 | blue
                let wx = x - (width - wordmark.width) / 2, wy = y - (height - wordmark.height) / 2
                if wx >= 0, wy >= 0, wx < wordmark.width, wy < wordmark.height {
                    pixel = OverlayBlend.over(wordmark.pixel(x: wx, y: wy), pixel)
                }
                logo.pixels.withUnsafeMutableBytes { $0.storeBytes(of: pixel, toByteOffset: y * logo.stride + x * 4, as: UInt32.self) }
            }
        }
        return encodePNG(logo)!
    }()

    static let nova = ChannelIdentity(number: 42, name: "Nova Cinema", logoPNG: logoPNG)
    static let harbour = ChannelIdentity(number: 7, name: "Harbour News 24")
    static let now = ProgrammeLine(title: "The Long Way Home", start: "20:00", end: "21:45")
    static let next = ProgrammeLine(title: "Late Night News with Maria Okafor and Guests", start: "21:45", end: "22:15")

    static let card = InterstitialCard(channel: nova, now: now, next: next, status: .loading(spinnerPhase: 0.3))
    static let errorCard = InterstitialCard(channel: harbour, now: ProgrammeLine(title: "Harbour Tonight", start: "20:00", end: "20:30"),
                                            status: .failed(reason: "Channel not responding", retryInSeconds: 4))
    static let banner = ChannelBanner(channel: nova, now: now, progress: 0.37, next: next)
    static let bannerLayers: [OverlayLayer] = [
        .logoBug(nova, appearance: 1),
        .banner(banner, appearance: 1),
        .digits(DigitEntry(digits: [4, 2], slots: 3), appearance: 1),
    ]

    /// A stand-in for a video frame (XRGB8888): an evening sky over a dark skyline,
    /// busy enough to judge the overlay's contrast.
    static func backdrop(width: Int, height: Int) -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        pixels.withUnsafeMutableBytes { raw in
            let out = raw.bindMemory(to: UInt32.self)
            for y in 0..<height {
                let t = Double(y) / Double(height)
                for x in 0..<width {
                    let u = Double(x) / Double(width)
                    let skyline = 0.62 + 0.08 * sin(u * 37) * cos(u * 11)
                    var r = 250 * (1 - t) * 0.9 + 40 * t, g = 140 * (1 - t) + 30 * t, b = 90 + 80 * t
                    if t > skyline { r *= 0.15; g *= 0.15; b *= 0.25 }
                    out[y * width + x] = 0xFF00_0000 | UInt32(min(r, 255)) << 16 | UInt32(min(g, 255)) << 8 | UInt32(min(b, 255))
                }
            }
        }
        return pixels
    }
}

/// Golden pictures in Tests/UITests/Goldens, found next to this file (#filePath),
/// compared tolerantly; `ZAPPER_RECORD_GOLDENS=1` writes them instead.
enum Goldens {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Goldens")
    static var recording: Bool { ProcessInfo.processInfo.environment["ZAPPER_RECORD_GOLDENS"] == "1" }
    /// A pixel differs when one of its channels is off by more than this.
    static let channelTolerance = 24
    /// The share of differing pixels that still passes.
    static let pixelShare = 0.005

    static func check(_ image: ARGBImage, named name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = directory.appendingPathComponent("\(name).png")
        if recording {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try PNGWriter.write(image, to: url.path)
            try writePreview(image, named: name)
            print("note: recorded golden \(url.path) (ZAPPER_RECORD_GOLDENS=1)")
            return
        }
        guard let bytes = FileManager.default.contents(atPath: url.path), let golden = decodePNG(Array(bytes)) else {
            Issue.record("no golden at \(url.path); run with ZAPPER_RECORD_GOLDENS=1 to record it", sourceLocation: sourceLocation)
            return
        }
        #expect(golden.width == image.width && golden.height == image.height, sourceLocation: sourceLocation)
        guard golden.width == image.width, golden.height == image.height else { return }
        let differing = countDifferingPixels(image, golden)
        let allowed = Int(Double(image.width * image.height) * pixelShare)
        if differing >= allowed {
            let actual = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-actual.png").path
            try? PNGWriter.write(image, to: actual)
            Issue.record("\(name): \(differing) pixels differ (allowed < \(allowed)); this run's picture: \(actual)",
                         sourceLocation: sourceLocation)
        }
    }

    static func countDifferingPixels(_ a: ARGBImage, _ b: ARGBImage) -> Int {
        var differing = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a.pixel(x: x, y: y), q = b.pixel(x: x, y: y)
                if p == q { continue }
                for shift in stride(from: 0, to: 32, by: 8) {
                    let d = abs(Int((p >> UInt32(shift)) & 0xFF) - Int((q >> UInt32(shift)) & 0xFF))
                    if d > channelTolerance {
                        differing += 1
                        break
                    }
                }
            }
        }
        return differing
    }

    /// When recording, also shows the overlay over a stand-in picture, for people to judge.
    static func writePreview(_ image: ARGBImage, named name: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("zapper-ui-previews")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var frame = Fixtures.backdrop(width: image.width, height: image.height)
        frame.withUnsafeMutableBytes { out in
            image.pixels.withUnsafeBytes { overlay in
                OverlayBlend.blend(overlay: overlay, overlayStride: image.stride, onto: out,
                                   width: image.width, height: image.height, stride: image.width * 4)
            }
        }
        try PNGWriter.write(pixels: frame, width: image.width, height: image.height, stride: image.width * 4,
                            to: folder.appendingPathComponent("\(name).png").path)
    }
}
