/// The (red, green, blue) medians of packed rgb24 pixels, as `ffmpeg -pix_fmt rgb24` writes them
/// (a histogram per channel, no sorting).
public func medianRGB(_ bytes: [UInt8]) -> (Int, Int, Int) {
    var histograms = [[Int]](repeating: [Int](repeating: 0, count: 256), count: 3)
    let pixels = bytes.count / 3
    bytes.withUnsafeBufferPointer { bytes in
        for pixel in 0..<pixels {
            for channel in 0..<3 { histograms[channel][Int(bytes[pixel * 3 + channel])] += 1 }
        }
    }
    func median(_ channel: Int) -> Int {
        // The value at index count / 2 of the channel's sorted values.
        var seen = 0
        for (value, count) in histograms[channel].enumerated() {
            seen += count
            if seen > pixels / 2 { return value }
        }
        return 0
    }
    return pixels == 0 ? (0, 0, 0) : (median(0), median(1), median(2))
}
