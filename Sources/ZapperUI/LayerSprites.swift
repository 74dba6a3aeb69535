import CCairo
import ZapperCore

/// Layers drawn once, fully shown, into images of their own, which the renderer
/// then puts on the overlay each frame where the layer's appearance places it,
/// faded: a card sliding in, a banner fading out or the panel rising does not
/// lay out and draw its text again on every frame, and nor does a card whose
/// spinner turns (the spinner is drawn over the image).
///
/// A layer's image is keyed by its `still` value (appearance 1, spinner at rest),
/// so any change of what it shows (another channel, a logo that arrived, the
/// panel's focus) draws a new one. Few are kept, the most recently used.
final class LayerSprites {
    private var entries: [(still: OverlayLayer, image: CairoImage)] = []
    private static let countLimit = 8
    private static let byteLimit = 64 << 20

    /// The layer as its image is drawn: fully shown, a loading card's spinner at
    /// rest; nil for layers drawn directly each time (the locked screen, whose
    /// backdrop does not fade, and subtitles, which only fade and change often).
    static func still(_ layer: OverlayLayer) -> OverlayLayer? {
        switch layer {
        case .interstitial(var card, _):
            if case .loading = card.status { card.status = .loading(spinnerPhase: 0) }
            return .interstitial(card, appearance: 1)
        case .banner(let banner, _): return .banner(banner, appearance: 1)
        case .logoBug(let channel, _): return .logoBug(channel, appearance: 1)
        case .digits(let entry, _): return .digits(entry, appearance: 1)
        case .panel(let content, _): return .panel(content, appearance: 1)
        case .hint(let message, _): return .hint(message, appearance: 1)
        case .volume(let level, _): return .volume(level, appearance: 1)
        case .offline: return .offline(appearance: 1)
        case .radio(let screen, _): return .radio(screen, appearance: 1)
        case .locked, .subtitles, .guide, .blank, .bitmapSubtitles: return nil
        }
    }

    /// The image of `still`, `width` x `height` pixels, drawn by `draw` (into a
    /// transparent image with its own context) when it is not kept already.
    func image(of still: OverlayLayer, width: Int, height: Int, draw: (_ cr: OpaquePointer) -> Void) -> CairoImage? {
        if let index = entries.firstIndex(where: { $0.still == still }) {
            let entry = entries.remove(at: index)
            entries.append(entry)
            return entry.image
        }
        guard let image = CairoImage(width: width, height: height, draw: draw) else { return nil }
        entries.append((still, image))
        while entries.count > 1,
              entries.count > Self.countLimit || entries.reduce(0, { $0 + $1.image.width * $1.image.height * 4 }) > Self.byteLimit {
            entries.removeFirst()
        }
        return image
    }

    /// Forgets every image (nothing is on the overlay: their memory goes back).
    func removeAll() { entries.removeAll() }

    /// Forgets the images of every layer but `shown` (the overlay at rest: the cards and
    /// banners of channels shown before go back; one shown again is drawn again).
    func keepOnly(_ shown: [OverlayLayer]) {
        entries.removeAll { entry in !shown.contains(entry.still) }
    }

    /// How many images are kept (for tests).
    var count: Int { entries.count }
}
