import Testing
import ZapperCore
import ZapperUI

/// The renderer: logos and their fallback, animation, clearing, staying in bounds.
@Suite struct OverlayRendererTests {
    func picture(_ layers: [OverlayLayer], width: Int = 1280, height: Int = 720) -> ARGBImage {
        let renderer = OverlayRenderer(width: width, height: height)
        renderer.render(layers)
        return renderer.image()
    }

    func card(_ channel: ChannelIdentity, phase: Double = 0) -> OverlayLayer {
        .interstitial(InterstitialCard(channel: channel, now: Fixtures.now, status: .loading(spinnerPhase: phase)), appearance: 1)
    }

    @Test func pngBytesRoundTrip() throws {
        let logo = try #require(decodePNG(Fixtures.logoPNG))
        #expect(logo.width == 360 && logo.height == 200)
        #expect(logo.pixel(x: 0, y: 0) == 0)  // outside the rounded corner
        #expect(logo.pixel(x: 180, y: 10) >> 24 == 0xFF)
        let bytes = try #require(encodePNG(logo))
        let again = try #require(decodePNG(bytes))
        #expect(again.pixels == logo.pixels)
    }

    @Test func brokenOrMissingLogoBytesGiveTheInitialsBadge() throws {
        var truncated = Array(Fixtures.logoPNG.prefix(200))
        #expect(decodePNG(truncated) == nil)
        #expect(decodePNG([]) == nil)
        #expect(decodePNG(Array("<html>404</html>".utf8)) == nil)

        // A logo bigger than 2048 x 2048 is refused (a lineup's logo URL is untrusted).
        let huge = ARGBImage(width: 2049, height: 2048, stride: 2049 * 4, pixels: [UInt8](repeating: 0, count: 2049 * 2048 * 4))
        let hugePNG = try #require(encodePNG(huge))
        #expect(hugePNG.count < 200_000)
        #expect(decodePNG(hugePNG)?.width == nil)
        // A header that claims 0xFFFFFFFF x 0xFFFFFFFF pixels (their product overflows Int) is refused, not a trap.
        var claim = Array(Fixtures.logoPNG.prefix(33))
        claim.replaceSubrange(16..<24, with: [UInt8](repeating: 0xFF, count: 8))
        #expect(decodePNG(claim) == nil)
        claim.replaceSubrange(16..<24, with: [0x7F, 0xFF, 0xFF, 0xFF, 0, 0, 0, 2])
        #expect(decodePNG(claim) == nil)

        let name = "Harbour News 24"
        let missing = picture([card(ChannelIdentity(number: 7, name: name))])
        let broken = picture([card(ChannelIdentity(number: 7, name: name, logoPNG: truncated))])
        truncated[0] = 0  // not even a PNG signature
        let garbage = picture([card(ChannelIdentity(number: 7, name: name, logoPNG: truncated))])
        let withLogo = picture([card(ChannelIdentity(number: 7, name: name, logoPNG: Fixtures.logoPNG))])
        #expect(broken.pixels == missing.pixels)
        #expect(garbage.pixels == missing.pixels)
        #expect(withLogo.pixels != missing.pixels)

        // The badge is the name's colour: opaque, near the monogram colour, left of the initials.
        let logoBox = OverlayLayout(width: 1280, height: 720).card().logo
        let probe = missing.pixel(x: Int(logoBox.minX + logoBox.width * 0.2), y: Int(logoBox.midY))
        let expected = ChannelMonogram.colour(for: name)
        #expect(probe >> 24 == 0xFF)
        let channels = [(probe >> 16) & 0xFF, (probe >> 8) & 0xFF, probe & 0xFF].map { Double($0) / 255 }
        for (got, want) in zip(channels, [expected.red, expected.green, expected.blue]) {
            #expect(abs(got - want) < 0.12, "badge \(String(probe, radix: 16)) vs \(expected)")
        }
    }

    @Test func theSpinnerTurnsWithItsPhase() {
        let channel = ChannelIdentity(number: 3, name: "Three")
        let start = picture([card(channel, phase: 0)])
        let quarter = picture([card(channel, phase: 0.25)])
        let fullTurn = picture([card(channel, phase: 1)])
        #expect(start.pixels != quarter.pixels)
        #expect(start.pixels == fullTurn.pixels)
        // Only the spinner changed.
        let spinner = OverlayLayout(width: 1280, height: 720).card().status.insetBy(dx: -2, dy: -2)
        for y in 0..<start.height {
            for x in 0..<start.width where start.pixel(x: x, y: y) != quarter.pixel(x: x, y: y) {
                #expect(spinner.contains(Rect(x: Double(x), y: Double(y), width: 1, height: 1)), "pixel \(x),\(y) changed")
                return
            }
        }
    }

    @Test func appearanceFadesAndSlidesTheCard() {
        let renderer = OverlayRenderer(width: 1280, height: 720)
        renderer.render([.interstitial(Fixtures.card, appearance: 0)])
        #expect(renderer.dirty == nil)
        #expect(renderer.image().pixels.allSatisfy { $0 == 0 })

        func topRowWithInk(_ image: ARGBImage, alphaAbove: UInt32) -> Int? {
            (0..<image.height).first { y in (0..<image.width).contains { image.pixel(x: $0, y: y) >> 24 > alphaAbove } }
        }
        func maxAlpha(_ image: ARGBImage) -> UInt32 { stride(from: 0, to: image.pixels.count, by: 4).map { UInt32(image.pixels[$0 + 3]) }.max()! }
        let half = picture([.interstitial(Fixtures.card, appearance: 0.3)])
        let full = picture([.interstitial(Fixtures.card, appearance: 1)])
        #expect(maxAlpha(half) < maxAlpha(full))
        #expect(maxAlpha(full) == 0xFF)
        // The fading card is lower than the settled one.
        #expect(topRowWithInk(half, alphaAbove: 0x20)! > topRowWithInk(full, alphaAbove: 0x20)!)
    }

    @Test func eachFrameStartsTransparentAndDamageCoversWhatChanged() {
        let renderer = OverlayRenderer(width: 1280, height: 720)
        renderer.render([.interstitial(Fixtures.card, appearance: 1)])
        let cardBounds = renderer.dirty!
        #expect(renderer.damage == cardBounds)
        renderer.render([.logoBug(Fixtures.nova, appearance: 1)])
        let bugBounds = renderer.dirty!
        #expect(renderer.damage == cardBounds.union(bugBounds))
        // Nothing of the card is left.
        let image = renderer.image()
        for y in Int(cardBounds.minY)..<Int(cardBounds.maxY) {
            for x in Int(cardBounds.minX)..<Int(cardBounds.maxX) {
                #expect(image.pixel(x: x, y: y) == 0)
                if image.pixel(x: x, y: y) != 0 { return }
            }
        }
        renderer.render([.logoBug(Fixtures.nova, appearance: 1)])
        #expect(renderer.dirty == bugBounds && renderer.damage == nil, "an unchanged frame changes nothing")
        renderer.render([])
        #expect(renderer.dirty == nil && renderer.damage == bugBounds)
        #expect(renderer.image().pixels.allSatisfy { $0 == 0 })
    }

    /// Drawn pixels stay inside the dirty rectangle, and everything more than
    /// faintly opaque (all but the soft shadows) inside the title-safe area.
    @Test(arguments: [[1280, 720], [1920, 1080], [3840, 2160]])
    func pixelsStayInsideDirtyAndSafeArea(size: [Int]) {
        let renderer = OverlayRenderer(width: size[0], height: size[1])
        let longName = ChannelIdentity(number: 1234, name: String(repeating: "Very Long Channel Name ", count: 6))
        let long = ProgrammeLine(title: String(repeating: "An Endless Title ", count: 12), start: "10:00 PM", end: "11:30 PM")
        for layers in [Fixtures.bannerLayers + [.interstitial(Fixtures.card, appearance: 1)],
                       [.interstitial(InterstitialCard(channel: longName, now: long, next: long), appearance: 1),
                        .banner(ChannelBanner(channel: longName, now: long, progress: 2, next: long), appearance: 1),
                        .digits(DigitEntry(digits: [1, 2, 3, 4], slots: 4), appearance: 1), .logoBug(longName, appearance: 1),
                        .volume(VolumeLevel(level: 100), appearance: 1)]] {
            renderer.render(layers)
            let stray = StrayPixels(renderer, safe: renderer.layout.safe)
            #expect(stray.outsideDirty == 0)
            #expect(stray.outsideSafe == 0, "first \(stray.firstOutsideSafe)")
        }
    }

    /// The volume's bar is filled to the level; muted, it is empty and the words say so.
    @Test func theVolumeBarFillsToTheLevel() {
        let layout = OverlayLayout(width: 1920, height: 1080)
        let bar = layout.volume().bar.integral
        /// Pixels of the bar's middle row bright enough to be the fill (the track is a faint grey).
        func filled(_ level: VolumeLevel) -> Int {
            let image = picture([.volume(level, appearance: 1)], width: 1920, height: 1080)
            let y = Int(bar.midY)
            return (Int(bar.minX)..<Int(bar.maxX)).filter { x in (image.pixel(x: x, y: y) >> 8) & 0xFF > 0xC0 }.count
        }
        let quarter = filled(VolumeLevel(level: 25)), most = filled(VolumeLevel(level: 75)), full = filled(VolumeLevel(level: 100))
        #expect(abs(Double(quarter) - bar.width / 4) < 4, "25 %: \(quarter) of \(bar.width) px")
        #expect(abs(Double(most) - bar.width * 3 / 4) < 4, "75 %: \(most) of \(bar.width) px")
        #expect(abs(Double(full) - bar.width) < 4, "100 %: \(full) of \(bar.width) px")
        #expect(filled(VolumeLevel(level: 75, muted: true)) == 0)
        #expect(filled(VolumeLevel(level: 0)) == 0)
        #expect(VolumeLevel(level: 75, muted: true).words == "Muted" && VolumeLevel(level: 130).words == "100")
    }
}
