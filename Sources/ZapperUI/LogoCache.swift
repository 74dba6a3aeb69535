import CCairo

/// The overlay's channel logos: a few decoded, the rest as small PNGs of the size they are drawn.
///
/// A logo is decoded from the lineup's PNG once and scaled down to the largest box it is drawn
/// in (`side`); a 2048x2048 logo is kept at 180x180 on a 1080p screen. Only the `decodedLimit`
/// used last stay decoded (a flip shows one channel's logo; the guide draws a row's logo once,
/// into its canvas); the others are kept as that fitted picture encoded as PNG (a 180x180 logo
/// is 130 KB of pixels and typically 5-30 KB as PNG), and decoded again from it when asked:
/// 0.2 ms for such a PNG against tens of ms for the original. Measured on 2026-11-29 (10-channel
/// lineup, 1280x720, 300 flips): the decoded logos were 0.52 MB of the heap's live growth, the
/// largest part. A logo whose original is already that small is kept as the original's bytes.
final class LogoCache {
    /// Logos kept decoded, most recently used last.
    static let decodedLimit = 4
    /// Bytes of fitted PNGs kept; past it they are all let go (decoded again from the lineup's).
    static let compactBytes = 4 << 20

    /// The longest side a logo is kept at, in pixels.
    let side: Int
    private var decoded: [(png: [UInt8], image: CairoImage?)] = []
    /// Fitted PNG per original; empty for bytes that are not a PNG Cairo can read.
    private var compact: [[UInt8]: [UInt8]] = [:]
    private var keptBytes = 0

    init(side: Int) {
        self.side = side
    }

    /// The logo decoded from `png` at most `side` pixels on each side; nil when it is not a readable PNG.
    func image(_ png: [UInt8]) -> CairoImage? {
        if let index = decoded.lastIndex(where: { $0.png == png }) {
            let entry = decoded.remove(at: index)
            decoded.append(entry)
            return entry.image
        }
        let image: CairoImage?
        if let fitted = compact[png] {
            image = fitted.isEmpty ? nil : CairoImage(png: fitted)
        } else if let original = CairoImage(png: png) {
            image = original.fitted(within: side)
            // A logo that needed no scaling is kept as the lineup's bytes (shared, not copied).
            if let image { keep(image === original ? png : image.pngBytes() ?? png, for: png) }
        } else {
            image = nil
            keep([], for: png)
        }
        decoded.append((png, image))
        if decoded.count > Self.decodedLimit { decoded.removeFirst() }
        return image
    }

    private func keep(_ fitted: [UInt8], for png: [UInt8]) {
        if keptBytes + fitted.count > Self.compactBytes {
            compact.removeAll()
            keptBytes = 0
        }
        compact[png] = fitted
        keptBytes += fitted.count
    }

    /// The pixels of the logos kept decoded (for tests).
    var decodedPixels: Int { decoded.reduce(0) { $0 + ($1.image.map { $0.width * $0.height } ?? 0) } }
    /// The bytes of the fitted PNGs kept (for tests).
    var compactByteCount: Int { keptBytes }
}
