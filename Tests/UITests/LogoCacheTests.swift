import Testing
import ZapperCore
@testable import ZapperUI

/// The overlay's logos (LogoCache): a few kept decoded, the rest as PNGs of the size they are drawn.
@Suite struct LogoCacheTests {
    /// A `side`x`side` opaque logo whose pixels tell `seed` apart, as PNG.
    private func logo(side: Int, seed: Int) throws -> [UInt8] {
        var pixels = [UInt8](repeating: 0xFF, count: side * side * 4)
        for pixel in stride(from: 0, to: pixels.count, by: 4) {
            pixels[pixel] = UInt8(truncatingIfNeeded: seed &* 37 &+ pixel / 4 % side)
            pixels[pixel + 1] = UInt8(truncatingIfNeeded: seed &* 11 &+ pixel / 4 / side)
        }
        return try #require(encodePNG(ARGBImage(width: side, height: side, stride: side * 4, pixels: pixels)))
    }

    /// Ten logos asked in turn: only the last four stay decoded, at the fitted size; the others
    /// are kept as fitted PNGs, far smaller than their pixels.
    @Test func onlyTheLastFewStayDecoded() throws {
        let cache = LogoCache(side: 120)
        let logos = try (0..<10).map { try logo(side: 400, seed: $0) }
        for png in logos { #expect(cache.image(png)?.width == 120) }
        #expect(cache.decodedPixels == LogoCache.decodedLimit * 120 * 120)
        #expect(cache.compactByteCount > 0)
        #expect(cache.compactByteCount < 10 * 120 * 120 * 4 / 2, "\(cache.compactByteCount) bytes of fitted PNGs")
    }

    /// A logo let go is decoded again from its fitted PNG: the same pixels as the first time.
    @Test func aLogoLetGoComesBackTheSame() throws {
        let cache = LogoCache(side: 120)
        let first = try logo(side: 400, seed: 1)
        let before = try #require(cache.image(first)).argbImage
        for seed in 2...(LogoCache.decodedLimit + 2) { _ = cache.image(try logo(side: 400, seed: seed)) }
        let after = try #require(cache.image(first)).argbImage
        #expect(after.width == before.width && after.height == before.height)
        #expect(after.pixels == before.pixels)
    }

    /// A logo already no larger than `side` is kept as the lineup's own bytes.
    @Test func aSmallLogoIsKeptAsItsOwnBytes() throws {
        let cache = LogoCache(side: 120)
        let small = try logo(side: 64, seed: 3)
        #expect(cache.image(small)?.width == 64)
        #expect(cache.compactByteCount == small.count)
    }

    /// Bytes that are not a PNG draw no logo, each time, and are not decoded twice.
    @Test func bytesThatAreNoPNGDrawNothing() {
        let cache = LogoCache(side: 120)
        let junk: [UInt8] = Array("<html>not a logo</html>".utf8)
        #expect(cache.image(junk) == nil)
        #expect(cache.image(junk) == nil)
        #expect(cache.decodedPixels == 0)
    }
}
