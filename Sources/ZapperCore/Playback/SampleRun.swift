/// Decoded sound waiting for the output: one unbroken run of interleaved stereo
/// on the timeline (seconds), and the rules that keep it on its timestamps for
/// days. A block that overlaps the run's end (AAC padding at a discontinuity)
/// loses the overlap; a block after a gap is led in by silence. The output takes
/// from a timeline time: what is older is dropped, and where the run starts
/// later, silence leads in, so the sound never runs ahead of the picture.
public struct SampleRun {
    public let sampleRate: Int
    /// How far (in frames, 2 ms at 48 kHz) a block may sit off the run's end before it is realigned.
    public static let slackFrames = 96

    /// The samples from `start` on are waiting; those before were taken (reclaimed at the next append,
    /// so the output never shifts the whole buffer).
    private var samples: [Int16] = []
    private var start = 0
    /// The timeline time of the first waiting frame; nil before any sound came.
    public private(set) var time: Double?

    public init(sampleRate: Int) {
        self.sampleRate = max(sampleRate, 1)
    }

    public var waitingFrames: Int { (samples.count - start) / 2 }
    public var waitingSeconds: Double { Double(waitingFrames) / Double(sampleRate) }
    /// Sound came and all of it has been taken: the decoder behind it has run dry.
    public var hasRunDry: Bool { time != nil && waitingFrames == 0 }

    /// Adds a block of stereo decoded at timeline `blockTime` (a block at no real time is dropped).
    public mutating func append(_ block: [Int16], at blockTime: Double) {
        guard blockTime.isFinite else { return }
        var block = block[...]
        if let time, waitingFrames > 0 {
            let end = time + waitingSeconds
            let gap = ((blockTime - end) * Double(sampleRate)).rounded()
            if gap < Double(-Self.slackFrames) {
                // The overlap goes (a gap of minus the whole block or more drops all of it).
                let overlap = gap.magnitude >= Double(block.count / 2) ? block.count : Int(gap.magnitude) * 2
                block = block.dropFirst(overlap)
            } else if gap > Double(Self.slackFrames) {
                // At most a second of silence: a longer gap is a new start, not a pause.
                let frames = gap >= Double(sampleRate) ? sampleRate : Int(gap)
                samples += repeatElement(0, count: frames * 2)
            }
        } else {
            time = blockTime
        }
        if start > 0 {
            samples.removeFirst(start)
            start = 0
        }
        samples += block
    }

    /// Takes `frames` stereo frames from timeline `from`; nil when nothing is waiting (or
    /// all that waited was older and dropped).
    public mutating func take(frames: Int, from: Double) -> AudioTake? {
        guard var first = time, waitingFrames > 0, frames > 0, from.isFinite else { return nil }
        let late = ((from - first) * Double(sampleRate)).rounded(.down)
        if late > 0 {
            let drop = late >= Double(waitingFrames) ? waitingFrames : Int(late)
            start += drop * 2
            first += Double(drop) / Double(sampleRate)
        }
        guard waitingFrames > 0 else {
            time = first
            return nil
        }
        let ahead = ((first - from) * Double(sampleRate)).rounded()
        let lead = ahead > 0 ? (ahead >= Double(frames) ? frames : Int(ahead)) : 0
        let count = min(frames - lead, waitingFrames)
        var chunk = [Int16](repeating: 0, count: lead * 2)
        chunk += samples[start..<start + count * 2]
        start += count * 2
        time = first + Double(count) / Double(sampleRate)
        return AudioTake(time: lead > 0 ? from : first, samples: chunk, lead: lead)
    }

    /// Drops what is waiting; `forgettingTime` also forgets that sound ever came (a new
    /// feed's sound starts the run afresh).
    public mutating func removeAll(forgettingTime: Bool = false) {
        samples.removeAll()
        start = 0
        if forgettingTime { time = nil }
    }
}
