import Testing
import ZapperCore

/// The visual watchdog's rule: signatures of presented pictures in, a verdict out.
struct PictureWatchTests {
    static let moving = (0..<1000).map { PictureSignature(hash: UInt64($0), meanLuma: 120, maxLuma: 200) }
    static let still = PictureSignature(hash: 7, meanLuma: 120, maxLuma: 200)
    static func dark(_ hash: UInt64) -> PictureSignature { PictureSignature(hash: hash, meanLuma: 16, maxLuma: 20) }

    /// Presents `signature(i)` every 40 ms from `from` for `count` pictures; the verdicts with their times.
    static func feed(_ watch: inout PictureWatch, from: Int, count: Int, _ signature: (Int) -> PictureSignature)
        -> [(at: Int, verdict: PictureWatch.Verdict)] {
        var verdicts: [(Int, PictureWatch.Verdict)] = []
        for index in 0..<count {
            let now = from + index * 40
            if let verdict = watch.presented(signature(index), at: now) { verdicts.append((now, verdict)) }
        }
        return verdicts
    }

    @Test func movingPicturesNeverRaiseAVerdict() {
        var watch = PictureWatch()
        #expect(Self.feed(&watch, from: 0, count: 1000) { Self.moving[$0] }.isEmpty)
    }

    @Test func theSamePictureForTheFrozenTimeIsFrozenOnceUntilItMoves() {
        var watch = PictureWatch(settings: .init(frozenAfter: 4000, blackAfter: 4000))
        _ = Self.feed(&watch, from: 0, count: 10) { Self.moving[$0] }
        // From 400 ms on, the same picture: frozen at 4400 ms, once.
        let verdicts = Self.feed(&watch, from: 400, count: 300) { _ in Self.still }
        #expect(verdicts.map(\.at) == [4400])
        #expect(verdicts.first?.verdict == .frozen(milliseconds: 4000))
        // It moves, then freezes again: told again.
        _ = Self.feed(&watch, from: 12_400, count: 5) { Self.moving[$0 + 100] }
        let again = Self.feed(&watch, from: 12_600, count: 200) { _ in Self.still }
        #expect(again.map(\.at) == [16_600])
    }

    @Test func blackForTheBlackTimeIsBlackEvenWhenItFlickers() {
        var watch = PictureWatch(settings: .init(frozenAfter: 4000, blackAfter: 6000))
        // Black noise (the hash changes, every point stays dark): black after 6 s, never frozen.
        let verdicts = Self.feed(&watch, from: 0, count: 400) { Self.dark(UInt64($0)) }
        #expect(verdicts.count == 1)
        #expect(verdicts.first?.at == 6000 && verdicts.first?.verdict == .black(milliseconds: 6000))
        // A still black picture: black wins when both are due.
        var still = PictureWatch(settings: .init(frozenAfter: 5000, blackAfter: 5000))
        #expect(Self.feed(&still, from: 0, count: 200) { _ in Self.dark(1) }.map(\.verdict) == [.black(milliseconds: 5000)])
        // One bright point in the grid is not black.
        var bright = PictureWatch(settings: .init(frozenAfter: 100_000, blackAfter: 1000))
        #expect(Self.feed(&bright, from: 0, count: 200) { PictureSignature(hash: UInt64($0), meanLuma: 17, maxLuma: 60) }.isEmpty)
    }

    @Test func aCheckSetToZeroIsOff() {
        // Frozen off: a still picture is never told; a still black one is black.
        var noFrozen = PictureWatch(settings: .init(frozenAfter: 0, blackAfter: 3000))
        #expect(Self.feed(&noFrozen, from: 0, count: 500) { _ in Self.still }.isEmpty)
        #expect(Self.feed(&noFrozen, from: 20_000, count: 200) { _ in Self.dark(1) }.map(\.verdict) == [.black(milliseconds: 3000)])
        // Black off: black noise is never told; a still black picture is frozen (it is the same picture).
        var noBlack = PictureWatch(settings: .init(frozenAfter: 3000, blackAfter: 0))
        #expect(Self.feed(&noBlack, from: 0, count: 500) { Self.dark(UInt64($0)) }.isEmpty)
        #expect(Self.feed(&noBlack, from: 20_000, count: 200) { _ in Self.dark(1) }.map(\.verdict) == [.frozen(milliseconds: 3000)])
    }

    @Test func aResetForgetsTheStillPicture() {
        var watch = PictureWatch(settings: .init(frozenAfter: 2000, blackAfter: 2000))
        _ = Self.feed(&watch, from: 0, count: 40) { _ in Self.still }
        watch.reset()
        let verdicts = Self.feed(&watch, from: 1600, count: 100) { _ in Self.still }
        #expect(verdicts.map(\.at) == [3600], "counted from the reset's first picture, not from the first ever")
    }

    @Test func theSignatureSamplesAGridAndRefusesShortBuffers() {
        let width = 320, height = 180, stride = width * 4 + 64
        var pixels = [UInt8](repeating: 0, count: stride * height)
        for y in 0..<height { for x in 0..<width { pixels[y * stride + x * 4 + 2] = 200 } }  // red
        let red = pixels.withUnsafeBytes { PictureSignature.of($0, width: width, height: height, stride: stride) }
        #expect(red?.meanLuma == 59 && red?.maxLuma == 59)
        // A change at one grid point changes the hash; one between the points does not.
        let point = (2 * 10 + 1) * height / 54 * stride + (2 * 20 + 1) * width / 96 * 4
        pixels[point] = 255
        let touched = pixels.withUnsafeBytes { PictureSignature.of($0, width: width, height: height, stride: stride) }
        #expect(touched?.hash != red?.hash && touched?.maxLuma == 88)
        pixels[point] = 0
        pixels[0] = 255
        let between = pixels.withUnsafeBytes { PictureSignature.of($0, width: width, height: height, stride: stride) }
        #expect(between?.hash == red?.hash)
        // The last row needs only its pixels, not its padding: one byte fewer than those is too short.
        #expect(pixels.withUnsafeBytes { PictureSignature.of(UnsafeRawBufferPointer(rebasing: $0.dropLast(64)), width: width, height: height, stride: stride) } != nil)
        #expect(pixels.withUnsafeBytes { PictureSignature.of(UnsafeRawBufferPointer(rebasing: $0.dropLast(64 + 1)), width: width, height: height, stride: stride) } == nil)
        #expect(pixels.withUnsafeBytes { PictureSignature.of($0, width: width, height: height, stride: width * 2) } == nil)
        #expect(pixels.withUnsafeBytes { PictureSignature.of($0, width: 0, height: height, stride: stride) } == nil)
        #expect(pixels.withUnsafeBytes { PictureSignature.of($0, width: width, height: Int.max, stride: stride) } == nil)
    }
}
