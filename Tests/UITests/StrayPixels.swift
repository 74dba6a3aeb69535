import ZapperCore
import ZapperUI

/// Where an overlay drew outside its bounds: pixels drawn outside the
/// renderer's dirty rectangle, and pixels more than faintly opaque (all but
/// soft shadows) outside `safe`, with the first of those.
struct StrayPixels {
    var outsideDirty = 0
    var outsideSafe = 0
    var firstOutsideSafe = ""

    init(_ renderer: OverlayRenderer, safe: Rect) {
        let dirty = renderer.dirty!
        renderer.withPixels { pixels, stride in
            for y in 0..<renderer.height {
                for x in 0..<renderer.width {
                    let alpha = pixels[y * stride + x * 4 + 3]
                    guard alpha != 0 else { continue }
                    let point = Rect(x: Double(x), y: Double(y), width: 1, height: 1)
                    if !dirty.contains(point) { outsideDirty += 1 }
                    if alpha > 0x60, !safe.contains(point) {
                        if outsideSafe == 0 { firstOutsideSafe = "\(x),\(y) alpha \(alpha)" }
                        outsideSafe += 1
                    }
                }
            }
        }
    }
}
