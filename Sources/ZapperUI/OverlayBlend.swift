import ZapperCore

/// Composites the overlay (premultiplied ARGB32, as Cairo draws) onto a video
/// frame (XRGB8888: B, G, R, X in memory) in software: `frame = overlay + frame × (1 − α)`.
///
/// The overlay is mostly empty, so the work is bounded by a region (the
/// renderer's dirty rectangle) and fully transparent pixels are skipped four at
/// a time; the rest is blended four pixels at a time.
public enum OverlayBlend {
    /// - Parameters:
    ///   - overlay: the overlay's rows, `overlayStride` bytes apart, at least as large as the frame.
    ///   - frame: the frame's rows, `stride` bytes apart; `width` x `height` pixels are touched at most.
    ///   - region: the only pixels that can change (clipped to the frame); nil blends everything.
    public static func blend(overlay: UnsafeRawBufferPointer, overlayStride: Int,
                             onto frame: UnsafeMutableRawBufferPointer, width: Int, height: Int, stride: Int,
                             region: Rect? = nil) {
        guard let source = overlay.baseAddress, let destination = frame.baseAddress,
              width > 0, height > 0 else { return }
        let whole = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
        guard let area = (region ?? whole).integral.intersection(whole) else { return }
        let left = Int(area.minX), right = Int(area.maxX)
        let top = Int(area.minY), bottom = Int(area.maxY)
        // Never read or write past either buffer.
        precondition(overlayStride >= right * 4 && overlay.count >= (bottom - 1) * overlayStride + right * 4,
                     "the overlay is smaller than the blended region")
        precondition(stride >= right * 4 && frame.count >= (bottom - 1) * stride + right * 4,
                     "the frame is smaller than its width, height and stride say")

        for y in top..<bottom {
            let sourceRow = (source + y * overlayStride).assumingMemoryBound(to: UInt32.self)
            let destinationRow = (destination + y * stride).assumingMemoryBound(to: UInt32.self)
            blendRow(sourceRow, destinationRow, from: left, to: right)
        }
    }

    /// Four pixels at a time with the same arithmetic as `over` in each lane (so the
    /// result is the same to the bit), skipping groups that are all transparent;
    /// the row's last pixels one by one.
    @inline(__always)
    static func blendRow(_ source: UnsafePointer<UInt32>, _ destination: UnsafeMutablePointer<UInt32>,
                         from left: Int, to right: Int) {
        var x = left
        while x + 4 <= right {
            let pixels = UnsafeRawPointer(source + x).loadUnaligned(as: SIMD4<UInt32>.self)
            if pixels != .zero {
                let under = UnsafeRawPointer(destination + x).loadUnaligned(as: SIMD4<UInt32>.self)
                UnsafeMutableRawPointer(destination + x).storeBytes(of: over(pixels, under), as: SIMD4<UInt32>.self)
            }
            x += 4
        }
        while x < right {
            let pixel = source[x]
            if pixel != 0 { destination[x] = over(pixel, destination[x]) }
            x += 1
        }
    }

    /// `over` for four pixels at once.
    @inline(__always)
    static func over(_ source: SIMD4<UInt32>, _ destination: SIMD4<UInt32>) -> SIMD4<UInt32> {
        let keep = SIMD4<UInt32>(repeating: 255) &- (source &>> 24)
        let low = SIMD4<UInt32>(repeating: 0x00FF_00FF), half = SIMD4<UInt32>(repeating: 0x0080_0080)
        var redBlue = (destination & low) &* keep &+ half
        redBlue = ((redBlue &+ ((redBlue &>> 8) & low)) &>> 8) & low
        var alphaGreen = ((destination &>> 8) & low) &* keep &+ half
        alphaGreen = (alphaGreen &+ ((alphaGreen &>> 8) & low)) & SIMD4<UInt32>(repeating: 0xFF00_FF00)
        return source &+ (redBlue | alphaGreen)
    }

    /// One premultiplied pixel over another, exact to ±1 with a rounded division by 255
    /// (two channels at a time: red and blue, then alpha and green).
    @inline(__always)
    public static func over(_ source: UInt32, _ destination: UInt32) -> UInt32 {
        let alpha = source >> 24
        if alpha == 255 { return source }
        let keep = 255 &- alpha
        var redBlue = (destination & 0x00FF_00FF) &* keep &+ 0x0080_0080
        redBlue = ((redBlue &+ ((redBlue >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
        var alphaGreen = ((destination >> 8) & 0x00FF_00FF) &* keep &+ 0x0080_0080
        alphaGreen = (alphaGreen &+ ((alphaGreen >> 8) & 0x00FF_00FF)) & 0xFF00_FF00
        return source &+ (redBlue | alphaGreen)
    }
}
