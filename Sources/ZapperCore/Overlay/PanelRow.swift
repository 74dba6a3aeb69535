/// The rows of the swipe-up panel, in the order they are shown.
public enum PanelRow: String, CaseIterable, Sendable, Codable {
    case channels, info, audio, subtitles, picture
    /// One item: the full-screen guide.
    case guide
    /// No items: a code for a phone's camera that opens the box's remote-control page (only
    /// when the HTTP API is on).
    case phone

    /// The tabs of a box without the HTTP API.
    public static let standard: [PanelRow] = allCases.filter { $0 != .phone }

    /// The row's heading on screen.
    public var title: String {
        switch self {
        case .channels: "Channels"
        case .info: "Info"
        case .audio: "Audio"
        case .subtitles: "Subtitles"
        case .picture: "Picture"
        case .guide: "Guide"
        case .phone: "Phone"
        }
    }
}

/// How the video fills the screen.
public enum PictureMode: String, CaseIterable, Sendable, Codable {
    /// The whole picture, letterboxed or pillarboxed (the default).
    case fit
    /// The screen filled, the picture cropped to keep its shape.
    case fill
    /// Fill, then a further 4:3-in-16:9 style zoom for pictures with black bars burnt in.
    case zoom

    public var title: String {
        switch self {
        case .fit: "Fit"
        case .fill: "Fill"
        case .zoom: "Zoom"
        }
    }
}

/// Where a picture goes on screen in a picture mode: the part of the source
/// that is shown (`crop`, in source pixels) and where it lands (`box`, in
/// screen pixels, even-aligned and centred).
public struct PicturePlacement: Sendable, Equatable {
    public var crop: (x: Int, y: Int, width: Int, height: Int)
    public var box: (x: Int, y: Int, width: Int, height: Int)

    public static func == (a: Self, b: Self) -> Bool { a.crop == b.crop && a.box == b.box }

    /// How much further than fill the zoom mode magnifies.
    public static let zoomFactor = 4.0 / 3.0

    public init(mode: PictureMode, source: (width: Int, height: Int), target: (width: Int, height: Int)) {
        guard source.width > 0, source.height > 0, target.width > 0, target.height > 0 else {
            crop = (0, 0, max(source.width, 0), max(source.height, 0))
            box = (0, 0, target.width, target.height)
            return
        }
        let scaleX = Double(target.width) / Double(source.width)
        let scaleY = Double(target.height) / Double(source.height)
        switch mode {
        case .fit:
            let scale = min(scaleX, scaleY)
            let width = min(target.width, Int((Double(source.width) * scale).rounded()) & ~1)
            let height = min(target.height, Int((Double(source.height) * scale).rounded()) & ~1)
            crop = (0, 0, source.width, source.height)
            box = ((target.width - width) / 2, (target.height - height) / 2, width, height)
        case .fill, .zoom:
            let scale = max(scaleX, scaleY) * (mode == .zoom ? Self.zoomFactor : 1)
            // The source part that covers the screen at that scale, even-aligned for chroma.
            let width = min(source.width, Int((Double(target.width) / scale).rounded()) & ~1)
            let height = min(source.height, Int((Double(target.height) / scale).rounded()) & ~1)
            crop = (((source.width - width) / 2) & ~1, ((source.height - height) / 2) & ~1, max(width, 2), max(height, 2))
            box = (0, 0, target.width, target.height)
        }
    }
}
