/// Where the overlay's elements go on a screen of any size.
///
/// Everything is designed on a 1920x1080 canvas and scaled by
/// `min(width / 1920, height / 1080)`, so a 4:3 or 16:10 mode keeps the
/// proportions. Elements are anchored to the edges of the TV-safe area of the
/// real screen, never to the screen's edges.
///
/// The safe area is the *title-safe* area (90 % of each dimension, SMPTE RP
/// 2046-1 / EBU R 95): everything Zapper draws is text or a logo a viewer
/// must read, and TVs that overscan (many still do by default on HDMI) crop
/// up to 5 % per side. Action-safe (93 %) is meant for picture content that
/// may lose its edges, which overlay text must not.
public struct OverlayLayout: Sendable, Equatable {
    public enum SafeArea: Sendable, Equatable {
        /// 90 % of each dimension: for text and graphics (the default).
        case title
        /// 93 % of each dimension.
        case action

        /// The margin on each side, in percent of the screen's width or height.
        public var marginPercent: Double { self == .title ? 5 : 3.5 }
    }

    public static let designWidth = 1920.0
    public static let designHeight = 1080.0
    /// How far soft shadows reach beyond a panel, in design units.
    public static let shadowReach = 30.0
    /// How far an element slides while it appears, in design units.
    public static let slideDistance = 48.0
    /// Width of the "NOW" / "NEXT" label column in programme rows, in design units.
    public static let labelColumn = 92.0

    public let screen: Rect
    public let safe: Rect
    /// Screen pixels per design unit.
    public let scale: Double

    public init(width: Int, height: Int, safeArea: SafeArea = .title) {
        let w = Double(max(width, 1))
        let h = Double(max(height, 1))
        screen = Rect(x: 0, y: 0, width: w, height: h)
        let left = w * safeArea.marginPercent / 100
        let top = h * safeArea.marginPercent / 100
        safe = Rect(x: left, y: top, width: w - 2 * left, height: h - 2 * top)
        scale = min(w / Self.designWidth, h / Self.designHeight)
    }

    /// Design units to screen pixels.
    public func units(_ value: Double) -> Double { value * scale }

    /// Ease-out cubic of an appearance clamped to 0…1: fast at first, settling gently.
    public static func eased(_ appearance: Double) -> Double {
        let a = min(max(appearance.isNaN ? 0 : appearance, 0), 1)
        let rest = 1 - a
        return 1 - rest * rest * rest
    }

    /// A rectangle inside `frame`, given in design units from its top-left corner.
    func inside(_ frame: Rect, _ x: Double, _ y: Double, _ width: Double, _ height: Double) -> Rect {
        Rect(x: frame.x + units(x), y: frame.y + units(y), width: units(width), height: units(height))
    }

    /// How far a half-shown element is pushed down.
    func slide(_ appearance: Double) -> Double { units(Self.slideDistance) * (1 - Self.eased(appearance)) }

    // MARK: Interstitial card

    public struct Card: Sendable, Equatable {
        public var panel: Rect
        public var cornerRadius: Double
        public var logo: Rect
        /// The row with the channel number (large) and the name after it.
        public var header: Rect
        public var divider: Rect
        /// Two rows: now and next, or the error's reason and its retry line.
        public var rows: [Rect]
        /// The spinner, or the error icon in its place.
        public var status: Rect
    }

    /// The longest side of any box a logo is drawn in (the card's), in design units: a logo is
    /// kept no larger than this (`units(largestLogoSide)` pixels).
    public static let largestLogoSide = 180.0

    /// The card, centred in the lower third of the safe area.
    public func card(appearance: Double = 1) -> Card {
        let size = (width: 1040.0, height: 300.0)
        let panel = Rect(x: safe.midX - units(size.width) / 2,
                         y: safe.maxY - units(96 + size.height) + slide(appearance),
                         width: units(size.width), height: units(size.height))
        return card(in: panel)
    }

    /// The card's parts inside its panel.
    private func card(in panel: Rect) -> Card {
        Card(panel: panel, cornerRadius: units(30),
             logo: inside(panel, 40, 60, Self.largestLogoSide, Self.largestLogoSide),
             header: inside(panel, 260, 34, 640, 92),
             divider: inside(panel, 260, 142, 740, 2),
             rows: [inside(panel, 260, 164, 740, 46), inside(panel, 260, 218, 740, 46)],
             status: inside(panel, 944, 40, 56, 56))
    }

    /// A radio channel's card: the loading card's size and parts, placed by its drift in the
    /// upper two thirds of the safe area (the lower third stays for cards, banners and subtitles).
    public func radio(_ screen: RadioScreen) -> Card {
        let size = (width: units(1040), height: units(300))
        let room = (x: max(0, (safe.width - size.width) / 2), y: max(0, (safe.height * 2 / 3 - size.height) / 2))
        return card(in: Rect(x: safe.midX - size.width / 2 + room.x * screen.driftX,
                             y: safe.minY + room.y * (1 + screen.driftY), width: size.width, height: size.height))
    }

    /// Where a bitmap subtitle's regions land together (nothing when it has none).
    public func subtitleRegions(_ bitmap: SubtitleBitmap) -> Rect {
        let frames = bitmap.regions.map { bitmap.frame(of: $0, onScreen: Int(screen.width), Int(screen.height)) }
        guard let first = frames.first else { return Rect(x: 0, y: 0, width: 0, height: 0) }
        return frames.dropFirst().reduce(first) { $0.union($1) }
    }

    // MARK: Banner after a zap

    public struct Banner: Sendable, Equatable {
        public var panel: Rect
        public var cornerRadius: Double
        public var logo: Rect
        public var header: Rect
        /// The next programme, right-aligned at the end of the header row.
        public var next: Rect
        /// The now programme's time and title.
        public var row: Rect
        public var progressBar: Rect
    }

    /// The banner across the bottom of the safe area.
    public func banner(appearance: Double = 1) -> Banner {
        let height = units(172)
        let panel = Rect(x: safe.minX, y: safe.maxY - height + slide(appearance), width: safe.width, height: height)
        let textLeft = 180.0
        let textWidth = safe.width / scale - textLeft - 36
        return Banner(panel: panel, cornerRadius: units(26),
                      logo: inside(panel, 24, 24, 124, 124),
                      header: inside(panel, textLeft, 18, textWidth * 0.6, 70),
                      next: inside(panel, textLeft + textWidth * 0.6, 30, textWidth * 0.4, 52),
                      row: inside(panel, textLeft, 90, textWidth, 42),
                      progressBar: inside(panel, textLeft, 142, textWidth, 8))
    }

    // MARK: Logo bug and digits

    /// The persistent logo, top-left of the safe area, in a 16:9 box. It only
    /// fades (a slide would cross the safe area's edge), so `appearance` does not move it.
    public func logoBug(appearance: Double = 1) -> Rect {
        Rect(x: safe.minX, y: safe.minY, width: units(176), height: units(99))
    }

    /// The offline badge: a pill in the top right corner of the safe area (the logo bug has the left).
    public func offlineBadge(appearance: Double = 1) -> Rect {
        Rect(x: safe.maxX - units(180), y: safe.minY, width: units(180), height: units(60))
    }

    /// The badge's amber dot, before its word.
    public func offlineDot() -> Rect {
        let badge = offlineBadge()
        return Rect(x: badge.minX + units(24), y: badge.midY - units(7), width: units(14), height: units(14))
    }

    public struct Digits: Sendable, Equatable {
        public var panel: Rect
        public var cornerRadius: Double
        public var cells: [Rect]
    }

    /// The digits being typed, top-right of the safe area (they only fade, like the logo bug).
    public func digits(slots: Int, appearance: Double = 1) -> Digits {
        let count = max(slots, 1)
        let cell = (width: 72.0, height: 96.0, gap: 14.0, padding: 26.0)
        let widthInUnits = 2 * cell.padding + Double(count) * cell.width + Double(count - 1) * cell.gap
        let panel = Rect(x: safe.maxX - units(widthInUnits), y: safe.minY,
                         width: units(widthInUnits), height: units(cell.height + 2 * cell.padding))
        let cells = (0..<count).map {
            inside(panel, cell.padding + Double($0) * (cell.width + cell.gap), cell.padding, cell.width, cell.height)
        }
        return Digits(panel: panel, cornerRadius: units(24), cells: cells)
    }

    public struct Volume: Sendable, Equatable {
        public var panel: Rect
        public var glyph: Rect
        public var bar: Rect
        public var number: Rect
    }

    /// The sound level, top centre of the safe area (between the logo bug and the digits):
    /// a speaker, a bar and the level. It only fades, like the logo bug.
    public func volume(appearance: Double = 1) -> Volume {
        let width = 520.0, height = 84.0
        let panel = Rect(x: safe.midX - units(width) / 2, y: safe.minY, width: units(width), height: units(height))
        return Volume(panel: panel, glyph: inside(panel, 28, 22, 40, 40), bar: inside(panel, 90, 37, 270, 10),
                      number: inside(panel, 376, 12, 116, 60))
    }

    // MARK: What a layer touches

    /// The element's own frame (without its shadow).
    public func frame(of layer: OverlayLayer) -> Rect {
        switch layer {
        case .interstitial(_, let appearance): card(appearance: appearance).panel
        case .banner(_, let appearance): banner(appearance: appearance).panel
        case .logoBug(_, let appearance): logoBug(appearance: appearance)
        case .digits(let entry, let appearance): digits(slots: entry.slots, appearance: appearance).panel
        case .panel(let content, let appearance): panel(content, appearance: appearance).panel
        case .hint(_, let appearance): hint(appearance: appearance)
        case .locked, .guide, .blank: screen
        case .subtitles: subtitles().band
        case .volume(_, let appearance): volume(appearance: appearance).panel
        case .offline(let appearance): offlineBadge(appearance: appearance)
        case .radio(let screen, _): radio(screen).panel
        case .bitmapSubtitles(let bitmap, _): subtitleRegions(bitmap)
        }
    }

    /// Every pixel the layer may change, shadow included, in whole pixels and
    /// clipped to the screen; nil when the layer is invisible.
    /// A locked card is never invisible: its dark screen hides the picture at any appearance.
    public func bounds(of layer: OverlayLayer) -> Rect? {
        switch layer {
        case .locked, .blank: return screen
        case .subtitles(let lines, _) where lines.allSatisfy({ $0.isEmpty }): return nil
        case .bitmapSubtitles(let bitmap, _) where bitmap.regions.isEmpty: return nil
        case .hint(let text, _) where text.isEmpty: return nil
        default: break
        }
        guard Self.eased(layer.appearance) > 0 else { return nil }
        let reach = units(Self.shadowReach)
        return frame(of: layer).insetBy(dx: -reach, dy: -reach).integral.intersection(screen)
    }

    /// The union of the layers' bounds: what a frame with these layers dirties.
    public func bounds(of layers: [OverlayLayer]) -> Rect? {
        var total: Rect?
        for bound in layers.compactMap({ bounds(of: $0) }) {
            total = total.map { $0.union(bound) } ?? bound
        }
        return total
    }

    /// The layers' bounds as rectangles that do not overlap (overlapping ones
    /// are merged), so each pixel is blended once and the empty middle of the
    /// screen between a corner logo and a bottom banner is never visited.
    public func regions(of layers: [OverlayLayer]) -> [Rect] {
        var regions: [Rect] = []
        for bound in layers.compactMap({ bounds(of: $0) }) {
            var merged = bound
            // Merging can make a rectangle meet others it did not meet before.
            while let index = regions.firstIndex(where: { $0.intersection(merged) != nil }) {
                merged = merged.union(regions.remove(at: index))
            }
            regions.append(merged)
        }
        return regions
    }
}
