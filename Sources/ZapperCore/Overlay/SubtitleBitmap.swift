/// A bitmap subtitle as DVB sends it (`dvb_subtitle`): regions of pixels on the subtitle
/// stream's own canvas (720x576 unless its display definition says otherwise), drawn over
/// the picture, that canvas stretched over the screen.
///
/// The rules:
/// - A subtitle shows from `start` until `end` (its page time-out) or the next one, whichever
///   comes first; an empty one (no regions) clears the screen.
/// - Every size comes from the stream and is held: a canvas at most 1920x1080, a region inside
///   it and at most 8 of them, pixels exactly width x height x 4 bytes (premultiplied ARGB, as
///   Cairo's ARGB32 keeps them in memory: blue, green, red, alpha); anything else is dropped.
/// - Two are the same (for redrawing) when their `id`s are.
public struct SubtitleBitmap: Sendable, Equatable {
    public struct Region: Sendable, Equatable {
        public var x: Int, y: Int, width: Int, height: Int
        public var pixels: [UInt8]

        public init(x: Int, y: Int, width: Int, height: Int, pixels: [UInt8]) {
            (self.x, self.y, self.width, self.height, self.pixels) = (x, y, width, height, pixels)
        }
    }

    public static let largestCanvas = (width: 1920, height: 1080)
    public static let mostRegions = 8

    public let id: Int
    public let canvasWidth: Int
    public let canvasHeight: Int
    public let regions: [Region]

    /// Nil when the canvas is no size a subtitle stream may have; regions out of it, or with
    /// pixels of another size, are left out.
    public init?(id: Int, canvasWidth: Int, canvasHeight: Int, regions: [Region]) {
        guard (16...Self.largestCanvas.width).contains(canvasWidth), (16...Self.largestCanvas.height).contains(canvasHeight) else { return nil }
        self.id = id
        self.canvasWidth = canvasWidth
        self.canvasHeight = canvasHeight
        self.regions = Array(regions.filter { region in
            region.width > 0 && region.height > 0 && region.x >= 0 && region.y >= 0
                && region.x <= canvasWidth - region.width && region.y <= canvasHeight - region.height
                && region.pixels.count == region.width * region.height * 4
        }.prefix(Self.mostRegions))
    }

    public static func == (a: SubtitleBitmap, b: SubtitleBitmap) -> Bool { a.id == b.id }

    /// Where a region lands on a screen of `width` x `height` (the canvas stretched over it).
    public func frame(of region: Region, onScreen width: Int, _ height: Int) -> Rect {
        let sx = Double(width) / Double(canvasWidth), sy = Double(height) / Double(canvasHeight)
        return Rect(x: Double(region.x) * sx, y: Double(region.y) * sy, width: Double(region.width) * sx, height: Double(region.height) * sy)
    }
}

/// Bitmap subtitles waiting for their time and the one on screen: `SubtitleBitmap`'s rules
/// of when each shows, kept to `capacity` (the oldest go first).
public struct SubtitleBitmapQueue: Sendable {
    public struct Timed: Sendable {
        public var start: Double
        public var end: Double?
        public var bitmap: SubtitleBitmap

        public init(start: Double, end: Double?, bitmap: SubtitleBitmap) {
            self.start = start
            self.end = end
            self.bitmap = bitmap
        }
    }

    public static let capacity = 16
    private var waiting: [Timed] = []

    public init() {}

    public mutating func add(_ subtitle: Timed) {
        waiting.append(subtitle)
        waiting.sort { $0.start < $1.start }
        if waiting.count > Self.capacity { waiting.removeFirst(waiting.count - Self.capacity) }
    }

    public mutating func removeAll() { waiting.removeAll() }

    /// The subtitle on screen at `time`: the latest one begun, while its end has not come (nil: none).
    public mutating func showing(at time: Double) -> SubtitleBitmap? {
        // Those a later one has replaced are gone.
        while waiting.count > 1, waiting[1].start <= time { waiting.removeFirst() }
        guard let current = waiting.first, current.start <= time else { return nil }
        if let end = current.end, time >= end {
            waiting.removeFirst()
            return nil
        }
        return current.bitmap.regions.isEmpty ? nil : current.bitmap
    }
}
