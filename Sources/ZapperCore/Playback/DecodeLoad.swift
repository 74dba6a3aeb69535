/// Whether one decoding thread keeps up with a video stream: the time spent decoding a
/// window of pictures against the play time they span.
///
/// A one-thread decoder holds the fewest pictures (FFmpeg's frame threads each keep a
/// picture in flight and a context of their own: about 16 MB more at 1080p). It is
/// enough wherever decoding takes a small share of real time; on a box where it does
/// not, the stream is better decoded by several threads, and this says so.
public struct DecodeLoad: Sendable {
    /// Pictures per judgement (two seconds at 30 fps).
    public let window: Int
    /// The share of real time one thread may spend decoding and still be enough.
    public let busyShare: Double
    private var busy = 0.0
    private var count = 0
    private var first: Double?
    private var last: Double?

    public init(window: Int = 60, busyShare: Double = 0.5) {
        self.window = max(window, 2)
        self.busyShare = busyShare.isFinite ? max(busyShare, 0) : 0.5
    }

    /// One picture decoded in `busy` seconds, its presentation time `time` (seconds, nil
    /// when it has none). True when a window closes with the decoding having taken more
    /// than `busyShare` of the time its pictures span. Times that go backwards (a new
    /// timeline) or jump start the window again; a nonsensical busy time is not counted.
    public mutating func record(busy seconds: Double, time: Double?) -> Bool {
        closes(afterRecording: seconds, time: time).map { $0 > busyShare } ?? false
    }

    /// As `record`, telling the share of its play time a closed window spent decoding
    /// (nil while the window is open; 0 for a window of no play time).
    public mutating func closes(afterRecording seconds: Double, time: Double?) -> Double? {
        guard seconds.isFinite, seconds >= 0, let time, time.isFinite else { return nil }
        if let last, time <= last || time - last > 1 { reset() }
        if first == nil { first = time }
        last = time
        busy += seconds
        count += 1
        guard count >= window, let share = openShare(atLeast: window) else { return nil }
        reset()
        return share
    }

    /// The share of its play time the window still open has spent decoding, once it holds
    /// `atLeast` pictures (at least 2); nil before. For a decoder that fell behind the clock
    /// before its window closed: how far behind it was is in the pictures it did decode.
    public func openShare(atLeast: Int) -> Double? {
        guard count >= max(atLeast, 2), let first, let last else { return nil }
        let span = (last - first) * Double(count) / Double(count - 1)  // the last picture's own time too
        return span > 0 ? busy / span : 0
    }

    private mutating func reset() {
        busy = 0
        count = 0
        first = nil
        last = nil
    }
}
