import CCairo
import ZapperCore

/// The offline badge: a small glass pill with an amber dot and "Offline", in the
/// top right corner of the safe area, while copies stand in for what could not be fetched.
extension OverlayPainter {
    static let offlineAccent = RGBA(1.0, 0.71, 0.18)

    func offlineBadge() {
        let pill = layout.offlineBadge()
        panel(pill, radius: pill.height / 2)
        let dot = layout.offlineDot()
        fill(dot, radius: dot.width / 2, Self.offlineAccent)
        let left = dot.maxX + units(12)
        draw("Offline", Font(size: 26, weight: PANGO_WEIGHT_BOLD),
             in: Rect(x: left, y: pill.minY, width: pill.maxX - units(20) - left, height: pill.height), OverlayStyle.primaryText)
    }
}
