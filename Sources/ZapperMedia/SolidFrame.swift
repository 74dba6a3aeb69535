import CFFmpeg

extension Frame {
    /// A picture of one colour in YUV 4:2:0 (BT.601, limited range), as a decoder
    /// would deliver it: what a scripted channel shows in the player's behaviour tests.
    public static func solid(width: Int, height: Int, red: Int, green: Int, blue: Int) throws -> Frame {
        guard (2...8192).contains(width), (2...8192).contains(height) else {
            throw AVError(code: zapper_averror(EINVAL), operation: "a solid picture of \(width)x\(height)")
        }
        let frame = try Frame()
        frame.pointer.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        frame.pointer.pointee.width = Int32(width)
        frame.pointer.pointee.height = Int32(height)
        let status = av_frame_get_buffer(frame.pointer, 0)
        guard status >= 0 else { throw AVError(code: status, operation: "av_frame_get_buffer") }
        let (r, g, b) = (Double(red) / 255, Double(green) / 255, Double(blue) / 255)
        let luma = 16 + 65.481 * r + 128.553 * g + 24.966 * b
        let cb = 128 - 37.797 * r - 74.203 * g + 112 * b
        let cr = 128 + 112 * r - 93.786 * g - 18.214 * b
        for (plane, value, rows) in [(0, luma, height), (1, cb, (height + 1) / 2), (2, cr, (height + 1) / 2)] {
            let byte = Int32(max(0, min(255, value.rounded())))
            let stride = Int(withUnsafeBytes(of: frame.pointer.pointee.linesize) { $0.load(fromByteOffset: plane * 4, as: Int32.self) })
            let data = withUnsafeBytes(of: frame.pointer.pointee.data) { $0.load(fromByteOffset: plane * MemoryLayout<UnsafeMutablePointer<UInt8>?>.stride,
                                                                                   as: UnsafeMutablePointer<UInt8>?.self) }
            if let data { memset(data, byte, stride * rows) }
        }
        return frame
    }
}
