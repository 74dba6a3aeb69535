/// The A/V rule: which picture of a playback is due at the coming refresh. This is its one home;
/// the player's presenter asks it each turn, for each playback on screen. The rules:
///
/// 1. **The clock is the sound.** A playback with sound is timed by the sample heard now (the
///    device's own delay taken off: `AudioPump.clock`), moved by the lip-sync offset (`LipSync`).
/// 2. **Due means before the middle of the coming refresh interval**: a picture is due when its
///    time is at most the clock plus half the refresh period — the period the display reports
///    for its mode, else the one learnt from its flips, else 1/60 s. (50 Hz pictures on a 50 Hz
///    mode are each shown once; on 60 Hz the rule, not a constant, decides which repeats.)
/// 3. **The newest due picture is shown**; older due pictures are dropped unseen, so a late
///    picture is never shown late (`DuePictures.take(at:)`).
/// 4. **No clock yet, no waiting**: before a playback's first picture, and while a still first
///    picture is up (a warm neighbour's kept key frame), the first waiting picture is shown as it
///    comes; the first moving picture then starts the sound in step with it (`LipSync.soundStart`).
/// 5. **A playback without sound** (a muted tile, a radio's absent picture aside) is timed by the
///    monotonic clock from one picture it showed: its time then, plus the time since, times its rate.
/// 6. **Frozen shows nothing new**: a paused playback keeps the picture it shows.
public struct PictureDue: Sendable, Equatable {
    /// The period assumed when the display reports none and none was learnt.
    public static let fallbackPeriod = 1.0 / 60
    /// Periods outside this range are not believed (a mode of 0 Hz, a flip time gone wrong).
    public static let believable: ClosedRange<Double> = (1.0 / 360)...(1.0 / 10)

    /// The refresh period the rule uses, seconds.
    public let period: Double

    /// The display's reported period first, then the learnt one, then `fallbackPeriod`.
    public init(reported: Double?, learnt: Double? = nil) {
        period = [reported, learnt].compactMap { $0 }.first { Self.believable.contains($0) } ?? Self.fallbackPeriod
    }

    /// How one playback is timed this turn.
    public enum Clock: Sendable, Equatable {
        /// No clock yet (rule 4).
        case none
        /// The sound heard now, on the playback's timeline (rule 1).
        case sound(heard: Double, lipSync: LipSync)
        /// No sound: `pictureTime` was on screen at monotonic `at`; it is `now`, at `rate` (rule 5).
        case free(pictureTime: Double, at: Double, now: Double, rate: Double)
        /// Paused (rule 6).
        case frozen
    }

    /// What to take from the playback's waiting pictures.
    public enum Take: Sendable, Equatable {
        /// The first waiting picture, whatever its time.
        case first
        /// The newest picture whose time is at most this; the older ones dropped.
        case upTo(Double)
        /// Nothing: the picture shown stays.
        case nothing

        /// The time pictures are due against (nil: none, for `first` and `nothing`).
        public var dueTime: Double? {
            if case .upTo(let time) = self { return time }
            return nil
        }
    }

    /// The rule for one playback at this turn.
    public func take(_ clock: Clock) -> Take {
        switch clock {
        case .none: return .first
        case .frozen: return .nothing
        case let .sound(heard, lipSync): return .upTo(lipSync.pictureClock(heard: heard) + period / 2)
        case let .free(pictureTime, at, now, rate):
            return .upTo(pictureTime + max(0, now - at) * max(0, rate) + period / 2)
        }
    }
}
