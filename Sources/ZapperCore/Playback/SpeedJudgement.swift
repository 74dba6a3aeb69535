import Synchronization

/// A `SpeedVerdict` a process's decoders share (`DecoderThreads`, `DecodeCeiling`): one
/// lock, a monotonic clock, and the words for the log both when the judgement is made and
/// when it lapses (without the second a person reading the log of a box that went back to
/// larger pictures, or to one thread, would see only the change).
public final class SpeedJudgement: Sendable {
    private struct State {
        var verdict: SpeedVerdict
        /// The size last judged too slow ("1280x720"), for the log.
        var size = ""
    }

    private let state: Mutex<State>
    private let now: @Sendable () -> Double
    private let lapsed: @Sendable (_ size: String, _ held: String) -> Void

    /// `firstHold`: how long the first judgement holds (seconds on `now`, a monotonic
    /// clock). `lapsed` is told once for each judgement that lapses: the size it was made
    /// for and how long it held ("10 minutes").
    public init(firstHold: Double = SpeedVerdict.firstHold, now: @escaping @Sendable () -> Double,
                lapsed: @escaping @Sendable (_ size: String, _ held: String) -> Void = { _, _ in }) {
        state = Mutex(State(verdict: SpeedVerdict(firstHold: firstHold)))
        self.now = now
        self.lapsed = lapsed
    }

    /// The fewest pixels a picture had when it was found too slow, while that holds; nil otherwise.
    public var pixels: Int? {
        let (pixels, lapse) = state.withLock { state -> (Int?, (String, String)?) in
            let held = state.verdict.holds
            let pixels = state.verdict.pixels(at: now())
            return (pixels, held && pixels == nil ? (state.size, state.verdict.holdInWords) : nil)
        }
        if let lapse { lapsed(lapse.0, lapse.1) }
        return pixels
    }

    /// Pictures of `width`x`height` were found too slow: how long that now holds ("10 minutes")
    /// when it is news, nil when a judgement as low already holds.
    public func tooSlow(width: Int, height: Int) -> String? {
        _ = pixels  // a judgement that lapsed is told as such before it is made again
        return state.withLock { state in
            guard state.verdict.tooSlow(pixels: width * height, at: now()) else { return nil }
            state.size = "\(width)x\(height)"
            return state.verdict.holdInWords
        }
    }
}
