import Foundation
import Testing
import ZapperCore
@testable import ZapperUI

/// Software blending of the premultiplied overlay onto XRGB8888 video frames.
@Suite struct OverlayBlendTests {
    /// The reference: out = src + dst × (1 − α), per channel, rounded.
    func reference(_ source: UInt32, _ destination: UInt32) -> UInt32 {
        let alpha = Double(source >> 24) / 255
        var out: UInt32 = 0
        for shift: UInt32 in [0, 8, 16, 24] {
            let s = Double((source >> shift) & 0xFF), d = Double((destination >> shift) & 0xFF)
            out |= UInt32(min(255, (s + d * (1 - alpha)).rounded())) << shift
        }
        return out
    }

    func channelsClose(_ a: UInt32, _ b: UInt32, within: Int = 1) -> Bool {
        stride(from: 0, to: 32, by: 8).allSatisfy { abs(Int((a >> UInt32($0)) & 0xFF) - Int((b >> UInt32($0)) & 0xFF)) <= within }
    }

    @Test func onePixelOverAnotherFollowsPremultipliedAlpha() {
        // Transparent leaves the frame, opaque replaces it.
        #expect(OverlayBlend.over(0, 0xFF12_3456) == 0xFF12_3456)
        #expect(OverlayBlend.over(0xFFAB_CDEF, 0xFF12_3456) == 0xFFAB_CDEF)
        // Half-transparent white (premultiplied 0x80 0x80 0x80) over black and over blue.
        #expect(OverlayBlend.over(0x8080_8080, 0xFF00_0000) == 0xFF80_8080)
        #expect(OverlayBlend.over(0x8080_8080, 0xFF00_00FF) == 0xFF80_80FF)
        // 25 % red over mid grey: 0x40 + 0x80 × 191/255 = 0x40 + 96 = 0xA0 red, 96 = 0x60 green and blue.
        #expect(OverlayBlend.over(0x4040_0000, 0xFF80_8080) == 0xFFA0_6060)
        // Every alpha against a spread of backgrounds, within one count of the exact value.
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func random() -> UInt32 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt32(truncatingIfNeeded: seed >> 33)
        }
        for alpha in 0...255 {
            for _ in 0..<64 {
                let colour = random()
                // A valid premultiplied pixel: no channel above its alpha.
                var scaled = UInt32(alpha) << 24
                for shift: UInt32 in [0, 8, 16] {
                    let channel: UInt32 = ((colour >> shift) & 0xFF) * UInt32(alpha) / 255
                    scaled |= channel << shift
                }
                let background = 0xFF00_0000 | random() & 0x00FF_FFFF
                let blended = OverlayBlend.over(scaled, background)
                #expect(channelsClose(blended, reference(scaled, background)),
                        "\(String(scaled, radix: 16)) over \(String(background, radix: 16))")
            }
        }
    }

    /// The row blend (four pixels at a time, the rest one by one) gives every pixel exactly
    /// what `over` gives it, whatever the region's start and width.
    @Test func blendingARowIsBlendingEachPixel() {
        var seed: UInt64 = 0x2545_F491_4F6C_DD1D
        func random() -> UInt32 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt32(truncatingIfNeeded: seed >> 33)
        }
        let width = 67
        for (left, right) in [(0, 67), (1, 66), (3, 8), (5, 6), (2, 2)] {
            // Premultiplied overlay pixels, a quarter of them transparent, some runs of them.
            let overlay: [UInt32] = (0..<width).map { x in
                let alpha = x % 11 < 3 ? 0 : (x % 5 == 0 ? 255 : random() & 0xFF)
                guard alpha > 0 else { return 0 }
                let colour = random()
                return (alpha << 24) | [0, 8, 16].reduce(0) { $0 | (((colour >> $1) & 0xFF) * alpha / 255) << $1 }
            }
            let before: [UInt32] = (0..<width).map { _ in 0xFF00_0000 | random() & 0x00FF_FFFF }
            var after = before
            overlay.withUnsafeBufferPointer { source in
                after.withUnsafeMutableBufferPointer { OverlayBlend.blendRow(source.baseAddress!, $0.baseAddress!, from: left, to: right) }
            }
            for x in 0..<width {
                let want = (left..<right).contains(x) ? OverlayBlend.over(overlay[x], before[x]) : before[x]
                #expect(after[x] == want, "pixel \(x) of \(left)..<\(right)")
            }
        }
    }

    @Test func aTransparentOverlayLeavesTheFrameUntouched() {
        let width = 333, height = 41, stride = 336 * 4  // padded rows, odd width
        let overlay = [UInt8](repeating: 0, count: width * 4 * height)
        var frame = (0..<stride * height).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let before = frame
        frame.withUnsafeMutableBytes { out in
            overlay.withUnsafeBytes { OverlayBlend.blend(overlay: $0, overlayStride: width * 4, onto: out, width: width, height: height, stride: stride) }
        }
        #expect(frame == before)
    }

    @Test func onlyTheRegionIsBlendedAndPaddingIsNeverTouched() {
        let width = 64, height = 32, stride = 70 * 4
        // An overlay that is half-transparent white everywhere.
        let overlay = [UInt32](repeating: 0x8080_8080, count: width * height).withUnsafeBytes { Array($0) }
        var frame = [UInt8](repeating: 0, count: stride * height)
        for y in 0..<height {
            for x in 0..<70 {
                frame.withUnsafeMutableBytes { $0.storeBytes(of: UInt32(0xFF00_0040), toByteOffset: y * stride + x * 4, as: UInt32.self) }
            }
        }
        frame.withUnsafeMutableBytes { out in
            overlay.withUnsafeBytes {
                OverlayBlend.blend(overlay: $0, overlayStride: width * 4, onto: out, width: width, height: height, stride: stride,
                                   region: Rect(x: 10.5, y: 4, width: 20, height: 100))
            }
        }
        func pixel(_ x: Int, _ y: Int) -> UInt32 { frame.withUnsafeBytes { $0.load(fromByteOffset: y * stride + x * 4, as: UInt32.self) } }
        #expect(pixel(10, 4) == 0xFF80_80A0)  // the region's fractional edge widens to whole pixels
        #expect(pixel(30, 31) == 0xFF80_80A0)  // clipped to the frame's height
        #expect(pixel(9, 4) == 0xFF00_0040)
        #expect(pixel(31, 4) == 0xFF00_0040)
        #expect(pixel(10, 3) == 0xFF00_0040)
        #expect(pixel(65, 10) == 0xFF00_0040)  // row padding past the width
    }

    /// Blending only the renderer's dirty regions gives the same frame as
    /// blending everything, and costs a fraction of it (times printed; build
    /// with -c release for numbers that mean something).
    @Test(arguments: [[1920, 1080], [1280, 720]])
    func dirtyRegionBlendMatchesAFullBlend(size: [Int]) {
        let (width, height) = (size[0], size[1])
        let renderer = OverlayRenderer(width: width, height: height)
        let backdrop = Fixtures.backdrop(width: width, height: height)
        // Each frame differs a little (the banner sliding in, the spinner turning), so each is really drawn.
        let scenes: [(String, (Int) -> [OverlayLayer])] = [
            ("banner+bug+digits", { frame in
                [.logoBug(Fixtures.nova, appearance: 1), .banner(Fixtures.banner, appearance: 0.9 + Double(frame % 10) / 100),
                 .digits(DigitEntry(digits: [4, 2]), appearance: 1)] }),
            ("card+bug", { frame in
                var card = Fixtures.card
                card.status = .loading(spinnerPhase: Double(frame) / 12)
                return [.logoBug(Fixtures.nova, appearance: 1), .interstitial(card, appearance: 1)] }),
            ("bug", { frame in [.logoBug(Fixtures.nova, appearance: 1 - Double(frame % 10) / 100)] }),
        ]
        /// The median of a few runs (the first ones pay for fonts and page faults).
        func median(_ body: () -> Void) -> Duration {
            let runs = (0..<9).map { _ in ContinuousClock().measure(body) }.sorted()
            return runs[runs.count / 2]
        }
        for (name, layers) in scenes {
            var frame = 0
            let renderTime = median {
                frame += 1
                renderer.render(layers(frame))
            }
            let regions = renderer.dirtyRegions
            var partial = backdrop
            var full = backdrop
            let dirtyTime = median {
                partial.withUnsafeMutableBytes { renderer.blend(onto: $0, width: width, height: height, stride: width * 4) }
            }
            let fullTime = median {
                full.withUnsafeMutableBytes { out in
                    renderer.withPixels { OverlayBlend.blend(overlay: $0, overlayStride: $1, onto: out, width: width, height: height, stride: width * 4) }
                }
            }
            // Blended once, for comparing.
            partial = backdrop
            full = backdrop
            partial.withUnsafeMutableBytes { renderer.blend(onto: $0, width: width, height: height, stride: width * 4) }
            full.withUnsafeMutableBytes { out in
                renderer.withPixels { OverlayBlend.blend(overlay: $0, overlayStride: $1, onto: out, width: width, height: height, stride: width * 4) }
            }
            #expect(partial == full, "\(name)")
            #expect(partial != backdrop, "\(name)")
            let share = regions.reduce(0) { $0 + $1.width * $1.height } / Double(width * height)
            print("overlay \(width)x\(height) \(name): render \(renderTime); blend \(regions.count) dirty regions (\(Int(share * 100)) % of the frame) \(dirtyTime), whole frame \(fullTime)")
        }
    }
}
