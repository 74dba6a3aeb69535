/// A cheap fingerprint of a presented picture: a hash of a sparse grid of its pixels, and their
/// mean and highest brightness. Taken from the picture under the overlay at each new picture.
public struct PictureSignature: Sendable, Equatable {
    public var hash: UInt64
    /// Brightness 0…255 (BT.601 weights) of the grid's points: their mean and their highest.
    public var meanLuma: Int
    public var maxLuma: Int

    public init(hash: UInt64, meanLuma: Int, maxLuma: Int) {
        self.hash = hash
        self.meanLuma = meanLuma
        self.maxLuma = maxLuma
    }

    /// Columns and rows of the grid: 1,296 points, whatever the picture's size.
    public static let grid = (columns: 48, rows: 27)

    /// The signature of a picture of 32-bit pixels (blue, green, red, unused: XRGB8888 in memory),
    /// `stride` bytes a row. Nil when the buffer is smaller than the size says.
    public static func of(_ pixels: UnsafeRawBufferPointer, width: Int, height: Int, stride: Int) -> PictureSignature? {
        guard width > 0, height > 0, stride >= width * 4 else { return nil }
        let (lastRow, overflow) = stride.multipliedReportingOverflow(by: height - 1)
        guard !overflow, lastRow <= pixels.count - width * 4 else { return nil }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a
        var total = 0
        var highest = 0
        let columns = min(grid.columns, width)
        let rows = min(grid.rows, height)
        for row in 0..<rows {
            let y = (2 * row + 1) * height / (2 * rows)
            for column in 0..<columns {
                let x = (2 * column + 1) * width / (2 * columns)
                let offset = y * stride + x * 4
                let blue = pixels[offset], green = pixels[offset + 1], red = pixels[offset + 2]
                for byte in [red, green, blue] {
                    hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
                }
                let luma = (299 * Int(red) + 587 * Int(green) + 114 * Int(blue)) / 1000
                total += luma
                highest = max(highest, luma)
            }
        }
        return PictureSignature(hash: hash, meanLuma: total / (columns * rows), maxLuma: highest)
    }
}

/// The watch on the picture on screen: new pictures keep coming (the channel plays), but they
/// have shown the same thing for `frozenAfter`, or nothing but black for `blackAfter`
/// (milliseconds; 0 leaves that check out): then it gives its verdict, once, until the picture
/// moves again or it is reset (a new tune). Black wins over frozen (a black picture is also the
/// same picture).
public struct PictureWatch: Sendable, Equatable {
    public struct Settings: Sendable, Equatable {
        public var frozenAfter: Int
        public var blackAfter: Int
        /// A picture is black when no point of its grid is brighter than this (video black is 16).
        public var blackBelow: Int

        public init(frozenAfter: Int = 10_000, blackAfter: Int = 10_000, blackBelow: Int = 40) {
            self.frozenAfter = frozenAfter
            self.blackAfter = blackAfter
            self.blackBelow = blackBelow
        }
    }

    public enum Verdict: Sendable, Equatable {
        /// The same picture for this many milliseconds.
        case frozen(milliseconds: Int)
        /// Black for this many milliseconds.
        case black(milliseconds: Int)
    }

    public let settings: Settings
    /// The picture last seen and since when it has been the same.
    private var same: (hash: UInt64, since: Int)?
    /// Since when the pictures have been black.
    private var darkSince: Int?
    /// A verdict was given for what is on screen now.
    private var told = false

    public init(settings: Settings = Settings()) {
        self.settings = settings
    }

    public static func == (left: PictureWatch, right: PictureWatch) -> Bool {
        left.settings == right.settings && left.same?.hash == right.same?.hash && left.same?.since == right.same?.since
            && left.darkSince == right.darkSince && left.told == right.told
    }

    /// Forgets what it saw (a new tune starts).
    public mutating func reset() {
        same = nil
        darkSince = nil
        told = false
    }

    /// A new picture was presented at `now` (milliseconds); the verdict, when one is due.
    public mutating func presented(_ signature: PictureSignature, at now: Int) -> Verdict? {
        let dark = signature.maxLuma < settings.blackBelow
        if dark {
            darkSince = darkSince ?? now
        } else {
            darkSince = nil
        }
        if let same, same.hash == signature.hash {
            // Still the same picture.
        } else {
            same = (signature.hash, now)
            if !dark { told = false }
        }
        guard !told else { return nil }
        if let darkSince, settings.blackAfter > 0, now - darkSince >= settings.blackAfter {
            told = true
            return .black(milliseconds: now - darkSince)
        }
        if let same, settings.frozenAfter > 0, now - same.since >= settings.frozenAfter {
            told = true
            return .frozen(milliseconds: now - same.since)
        }
        return nil
    }
}
