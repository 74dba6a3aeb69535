/// Lip sync for a display that delays its picture (or a sound system that delays its sound):
/// `[sound] delay-ms`, and the Picture tab's steps, kept in the state.
///
/// The rules:
/// - A positive delay shows each picture that much earlier against the sound (the sound is
///   heard later than its picture is sent out); a negative one later. It is held to `range`.
/// - The picture due is the one whose time falls before `clock + delay` (the middle of the
///   vblank interval is added by the frame loop); a tune's sound starts at its first picture's
///   time less the delay, so that the two are in step from the first picture on.
/// - The Picture tab moves it in steps of `step`.
public struct LipSync: Sendable, Equatable {
    public static let range = -500...500
    public static let step = 20

    public private(set) var milliseconds: Int

    public init(milliseconds: Int = 0) {
        self.milliseconds = min(max(milliseconds, Self.range.lowerBound), Self.range.upperBound)
    }

    public var seconds: Double { Double(milliseconds) / 1000 }

    /// The timeline time pictures are due against, for the sound heard at `heard`.
    public func pictureClock(heard: Double) -> Double { heard + seconds }

    /// Where a tune's sound starts, for its first picture at `pictureTime`.
    public func soundStart(pictureTime: Double) -> Double { pictureTime - seconds }

    /// One step earlier (`by` +1) or later (-1), held to the range.
    public func stepped(by steps: Int) -> LipSync { LipSync(milliseconds: milliseconds + steps * Self.step) }

    /// "+40 ms", "0 ms", "-20 ms".
    public var words: String { milliseconds > 0 ? "+\(milliseconds) ms" : "\(milliseconds) ms" }
}
