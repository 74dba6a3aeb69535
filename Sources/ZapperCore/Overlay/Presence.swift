/// An overlay element's appearance over time: it animates in when content
/// arrives and out when it goes (keeping its last content while it fades),
/// and changes content in place while shown.
public struct Presence<Content: Equatable> {
    public static var milliseconds: Double { 180 }
    /// A change shows in the very frame drawn when it happens: that frame is on
    /// screen a vblank later, so the animation is one frame along by then
    /// (without this, the first frame after a key would look like the last).
    public static var headStart: Int { 17 }
    public private(set) var content: Content?
    private var visible = false
    private var changedAt = 0
    private var levelAtChange = 0.0

    public init() {}

    /// The content to draw and its appearance 0…1, or nil when fully gone.
    public mutating func update(_ wanted: Content?, now: Int) -> (content: Content, appearance: Double)? {
        if (wanted != nil) != visible {
            levelAtChange = level(now)
            changedAt = now - Self.headStart
            visible = wanted != nil
        }
        if let wanted { content = wanted }
        let appearance = level(now)
        if !visible && appearance <= 0 { content = nil }
        return content.map { ($0, appearance) }
    }

    private func level(_ now: Int) -> Double {
        let moved = Double(now - changedAt) / Self.milliseconds
        return visible ? min(1, levelAtChange + moved) : max(0, levelAtChange - moved)
    }
}
