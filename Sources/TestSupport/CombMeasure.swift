/// How much a picture combs: the broadcast channels' white bar moves fast across their lower
/// part, so a picture woven from two fields shows its left edge at two places on alternate rows.
/// The mean distance, in pixels, between the edge on each row and on the row below, over `rows`:
/// about 0 for a deinterlaced (or progressive) picture, the bar's movement in one field for a
/// woven one. Rows where no edge is found are passed over; nil when none is.
public func combOffset(width: Int, height: Int, rows: Range<Int>, isWhite: (_ x: Int, _ y: Int) -> Bool) -> Double? {
    func edge(_ row: Int) -> Int? {
        guard row >= 0, row < height else { return nil }
        return (0..<width).first { isWhite($0, row) }
    }
    var total = 0, pairs = 0
    for row in rows {
        guard let a = edge(row), let b = edge(row + 1) else { continue }
        total += abs(a - b)
        pairs += 1
    }
    return pairs == 0 ? nil : Double(total) / Double(pairs)
}

/// Whether a pixel is the bar's white: by its brightness (BT.601), not by each channel,
/// since a woven picture's 4:2:0 colour is shared by rows of both fields and tints its edge.
public func isBarWhite(red: UInt8, green: UInt8, blue: UInt8) -> Bool {
    299 * Int(red) + 587 * Int(green) + 114 * Int(blue) > 180_000
}

/// The same, of RGB24 bytes (a PNG read back with ffmpeg).
public func combOffset(rgb: [UInt8], width: Int, height: Int, rows: Range<Int>) -> Double? {
    combOffset(width: width, height: height, rows: rows) { x, y in
        let p = (y * width + x) * 3
        return p + 2 < rgb.count && isBarWhite(red: rgb[p], green: rgb[p + 1], blue: rgb[p + 2])
    }
}
