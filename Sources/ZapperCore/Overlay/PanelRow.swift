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
