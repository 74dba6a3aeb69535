import Testing
import ZapperCore
@testable import ZapperUI

/// Layers put on the overlay from images drawn once (LayerSprites): an animating
/// layer is its fully shown picture moved and faded, and a turning spinner or a
/// slide does not draw the layer again.
@Suite struct LayerSpriteTests {
    /// Every pixel of the layer at `appearance` is the fully shown layer's pixel, moved by
    /// the slide (in whole pixels) and faded by the eased appearance (±1 per channel).
    @Test(arguments: [0.2, 0.45, 0.7])
    func aSlidingLayerIsTheShownOneMovedAndFaded(appearance: Double) {
        let layout = OverlayLayout(width: 1920, height: 1080)
        let layers: [(String, OverlayLayer, OverlayLayer)] = [
            ("error card", .interstitial(Fixtures.errorCard, appearance: 1), .interstitial(Fixtures.errorCard, appearance: appearance)),
            ("banner", .banner(Fixtures.banner, appearance: 1), .banner(Fixtures.banner, appearance: appearance)),
        ]
        for (name, shown, moving) in layers {
            let full = picture([shown]), now = picture([moving])
            let dy = Int((layout.frame(of: moving).minY - layout.frame(of: shown).minY).rounded())
            #expect(dy > 0, "the \(name) slides up into place")
            let opacity = OverlayLayout.eased(appearance)
            let bounds = layout.bounds(of: moving)!
            var worst = 0
            for y in Int(bounds.minY)..<Int(bounds.maxY) where y - dy >= 0 {
                for x in Int(bounds.minX)..<Int(bounds.maxX) {
                    let was = full.pixel(x: x, y: y - dy), got = now.pixel(x: x, y: y)
                    for shift in [0, 8, 16, 24] {
                        let want = (Double((was >> UInt32(shift)) & 0xFF) * opacity).rounded()
                        worst = max(worst, abs(Int((got >> UInt32(shift)) & 0xFF) - Int(want)))
                    }
                }
            }
            #expect(worst <= 1, "the \(name): a channel off by \(worst)")
        }
    }

    @Test func aTurningSpinnerAndASlideDrawTheCardOnce() {
        let renderer = OverlayRenderer(width: 1920, height: 1080)
        var sliding: Set<Int> = [], turning: Set<Int> = []
        for frame in 0..<6 {  // sliding in, the spinner turning
            let card = InterstitialCard(channel: Fixtures.nova, now: Fixtures.now, status: .loading(spinnerPhase: (Double(frame) + 0.5) / 12))
            renderer.render([.interstitial(card, appearance: Double(frame + 1) / 10)])
            sliding.insert(Self.digest(renderer.image()))
        }
        for spoke in 0..<12 {  // in place, a spoke further each time
            let card = InterstitialCard(channel: Fixtures.nova, now: Fixtures.now, status: .loading(spinnerPhase: (Double(spoke) + 0.5) / 12))
            renderer.render([.interstitial(card, appearance: 1)])
            turning.insert(Self.digest(renderer.image()))
        }
        #expect(sliding.count == 6 && turning.count == 12, "every frame moved the card or turned its spinner")
        #expect(renderer.spriteCount == 1)
        // Another channel's card is another picture; few are kept while the cards move, and at
        // rest only the one on screen.
        for number in 1...20 {
            let card = InterstitialCard(channel: ChannelIdentity(number: number, name: "Channel \(number)"))
            renderer.render([.interstitial(card, appearance: 0.5)])
        }
        #expect(renderer.spriteCount == 8)
        let resting = InterstitialCard(channel: ChannelIdentity(number: 20, name: "Channel 20"))
        renderer.render([.interstitial(resting, appearance: 1), .logoBug(Fixtures.nova, appearance: 0.9)])
        #expect(renderer.spriteCount == 8, "a layer still fading in keeps the others")
        renderer.render([.interstitial(resting, appearance: 1), .logoBug(Fixtures.nova, appearance: 1)])
        #expect(renderer.spriteCount == 2)
    }

    /// Once nothing is on the overlay its images are let go and its pixels are transparent
    /// (their pages given back); the next card draws as it did the first time.
    @Test func anEmptyOverlayLetsItsMemoryGoAndDrawsAgainTheSame() {
        let renderer = OverlayRenderer(width: 1920, height: 1080)
        let layers: [OverlayLayer] = [.interstitial(Fixtures.errorCard, appearance: 1), .banner(Fixtures.banner, appearance: 0.5)]
        renderer.render(layers)
        let first = Self.digest(renderer.image())
        #expect(renderer.spriteCount == 2)
        renderer.render([])
        #expect(renderer.spriteCount == 0)
        #expect(renderer.dirty == nil)
        #expect(renderer.image().pixels.allSatisfy { $0 == 0 })
        renderer.render(layers)
        #expect(Self.digest(renderer.image()) == first)
    }

    /// A hash of every byte of the picture (the standard library's, over the bytes at once).
    private static func digest(_ image: ARGBImage) -> Int {
        var hasher = Hasher()
        image.pixels.withUnsafeBytes { hasher.combine(bytes: $0) }
        return hasher.finalize()
    }

    private func picture(_ layers: [OverlayLayer]) -> ARGBImage {
        let renderer = OverlayRenderer(width: 1920, height: 1080)
        renderer.render(layers)
        return renderer.image()
    }

    /// A logo is kept no larger than the largest box it is drawn in (the card's, 180 units):
    /// a 2048x2048 one as 180x180 at 1080p and 120x120 at 720p, and still drawn.
    @Test(arguments: [[1920, 1080, 180], [1280, 720, 120]])
    func aLargeLogoIsKeptAtTheSizeItIsDrawn(size: [Int]) throws {
        let side = 2048
        var pixels = [UInt8](repeating: 0, count: side * side * 4)
        for pixel in stride(from: 0, to: pixels.count, by: 4) { (pixels[pixel + 2], pixels[pixel + 3]) = (0xC8, 0xFF) }
        let red = ARGBImage(width: side, height: side, stride: side * 4, pixels: pixels)
        let channel = ChannelIdentity(number: 5, name: "Big Logo", logoPNG: try #require(encodePNG(red)))
        let renderer = OverlayRenderer(width: size[0], height: size[1])
        renderer.render([.interstitial(InterstitialCard(channel: channel, status: .loading(spinnerPhase: 0)), appearance: 1)])
        #expect(renderer.logoPixels == size[2] * size[2], "\(renderer.logoPixels) pixels kept")
        let box = OverlayLayout(width: size[0], height: size[1]).card().logo
        let centre = renderer.image().pixel(x: Int(box.midX), y: Int(box.midY))
        #expect(centre == 0xFFC8_0000, "\(String(centre, radix: 16)) in the logo's box")
    }
}
