/// Whether pictures coded as fields are deinterlaced (the Picture tab's Deinterlace).
public enum DeinterlaceMode: String, CaseIterable, Sendable, Codable {
    /// Pictures flagged interlaced are deinterlaced at field rate; progressive ones pass (the default).
    case auto
    /// Every picture is shown as coded (a comb on interlaced motion).
    case off

    public var title: String {
        switch self {
        case .auto: "Auto"
        case .off: "Off"
        }
    }
}
