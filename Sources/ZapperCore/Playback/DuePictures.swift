/// Decoded pictures waiting for their time on the timeline, in decode order, and
/// the rule for taking them: the newest picture due, the older ones dropped
/// unseen (a late picture is dropped, never shown late). Bounded by a count and
/// by the bytes they hold (their cost in resident memory), though never below
/// `minCount` pictures (large pictures still get a few in hand).
public struct DuePictures {
    public let maxCount: Int
    public let maxBytes: Int
    public private(set) var minCount: Int
    public private(set) var pictures: [TimedPicture] = []
    public private(set) var bytes = 0

    public init(maxCount: Int, maxBytes: Int, minCount: Int = 1) {
        self.maxCount = max(maxCount, 1)
        self.maxBytes = max(maxBytes, 1)
        self.minCount = min(max(minCount, 1), self.maxCount)
    }

    /// At least `count` pictures from now on, whatever they hold (never above `maxCount`): a
    /// deinterlacer at field rate, which holds a frame back and gives two pictures for each,
    /// needs more pictures in hand than a picture a frame does (at 1080i25 three are 60 ms,
    /// and a fifth of the fields were found dropped).
    public mutating func keepAtLeast(_ count: Int) {
        minCount = min(max(minCount, count), maxCount)
    }

    public var isFull: Bool { pictures.count >= maxCount || (bytes >= maxBytes && pictures.count >= minCount) }
    public var isEmpty: Bool { pictures.isEmpty }

    public mutating func append(_ picture: TimedPicture) {
        pictures.append(picture)
        bytes += picture.picture.byteSize
    }

    /// The newest picture due at `time`, counting the older ones passed to reach it;
    /// with `time` nil (nothing shown yet) the first waiting picture.
    public mutating func take(at time: Double?) -> TimedPicture? {
        guard let time else { return pictures.isEmpty ? nil : removeFirst() }
        var chosen: TimedPicture?
        var passed = 0
        while let next = pictures.first, next.time <= time {
            if chosen != nil { passed += 1 }
            chosen = removeFirst()
        }
        return chosen?.dropping(passed)
    }

    /// Drops the oldest picture (to make room without waiting).
    @discardableResult
    public mutating func removeFirst() -> TimedPicture {
        let first = pictures.removeFirst()
        bytes -= first.picture.byteSize
        return first
    }

    public mutating func removeAll() {
        pictures.removeAll()
        bytes = 0
    }
}
