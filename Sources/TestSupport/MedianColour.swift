/// The (red, green, blue) medians of packed rgb24 pixels, as `ffmpeg -pix_fmt rgb24` writes them.
public func medianRGB(_ bytes: [UInt8]) -> (Int, Int, Int) {
    func median(_ offset: Int) -> Int {
        let values = stride(from: offset, to: bytes.count, by: 3).map { Int(bytes[$0]) }.sorted()
        return values.isEmpty ? 0 : values[values.count / 2]
    }
    return (median(0), median(1), median(2))
}
