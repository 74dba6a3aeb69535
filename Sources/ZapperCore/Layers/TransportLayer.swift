/// Time-shift on the channel on screen, as a layer: pause, play and back to live.
///
/// - **Behind live is measured, not counted.** When the playhead first leaves the live edge it
///   notes the gap between the player's clock and the position heard (`liveGap`); from then on
///   it is `(now − heard) − liveGap`, never below 0. Paused, the position stands still, so a
///   pause held 5 s then played is 5 s behind.
/// - `play-pause` toggles; `pause` only pauses and `play` only plays (each takes its key and
///   does nothing otherwise); `live` behind the live edge tunes the channel again at its edge
///   (its picture stays until the live one replaces it), at the edge it does nothing.
/// - Nothing is taken before a picture (or a radio's sound) plays, nor with time-shift off
///   (`[signage] timeshift-disabled`): the keys pass on.
/// - Paused, the picture stays and the sound fades out; the channel goes on being fetched (up to
///   `TimeshiftBudget`). Played, both continue from where they stopped.
/// - Any tune (a flip, a number, the guide, a schedule, the fleet, or `live`) starts at the live
///   edge: `joinedLive`, at its start, begins the playhead afresh, told as `live` if it was behind.
/// - The bar shows while paused and for `barSeconds` after a pause, a play or a move.
/// - Every change of state is told (`timeshift` event): the state and how far behind live.
public struct TransportLayer: ScreenLayer, Equatable {
    public enum State: String, Sendable, Equatable {
        case live, paused, playing
    }

    public enum Effect: Sendable, Equatable {
        /// Keep the picture on screen, fade the sound out; fetching goes on.
        case freeze
        /// Play on from the picture and sound paused on.
        case resume
        /// Tune the channel on screen again, at its live edge.
        case rejoin
        /// The playhead's state changed: `behind` live by this many milliseconds.
        case told(State, behindMilliseconds: Int)
    }

    public struct Context {
        /// Time-shift is on (`TimeshiftSettings.enabled`).
        public var enabled: Bool
        /// The position heard now on the playing channel's timeline (seconds); nil: nothing plays yet.
        public var heard: Double?

        public init(enabled: Bool, heard: Double?) {
            self.enabled = enabled
            self.heard = heard
        }
    }

    /// How long the bar stays after a play or a move (milliseconds).
    public static let barMilliseconds = 5_000

    public private(set) var state: State = .live
    /// `now − heard` (seconds) at the live edge, noted when the playhead first left it.
    private var liveGap: Double?
    /// The bar is shown until then (while paused: always).
    private var barUntil: Int?

    public init() {}

    public mutating func take(_ action: Action, now: Int, in context: Context) -> [Effect]? {
        switch action {
        case .playPause, .pause, .play, .live: break
        default: return nil
        }
        guard context.enabled, let heard = context.heard else { return nil }
        switch (action, state) {
        case (.playPause, .paused), (.play, .paused):
            state = .playing
            barUntil = now + Self.barMilliseconds
            return [.resume, told(now: now, heard: heard)]
        case (.playPause, _), (.pause, .live), (.pause, .playing):
            if liveGap == nil { liveGap = Self.seconds(now) - heard }
            state = .paused
            barUntil = nil
            return [.freeze, told(now: now, heard: heard)]
        case (.live, .paused), (.live, .playing):
            return [.rejoin]
        default:
            return []
        }
    }

    public mutating func tick(now: Int, in context: Context) -> [Effect] {
        if let until = barUntil, now >= until { barUntil = nil }
        return []
    }

    /// A tune started: the playhead is at the live edge; told when it was not.
    public mutating func joinedLive() -> [Effect] {
        let was = state
        self = TransportLayer()
        return was == .live ? [] : [.told(.live, behindMilliseconds: 0)]
    }

    /// How far behind the live edge the position `heard` is at `now` (seconds).
    public func behind(now: Int, heard: Double) -> Double {
        guard let liveGap else { return 0 }
        return max(0, Self.seconds(now) - heard - liveGap)
    }

    /// Whether the bar is up.
    public func showsBar(now: Int) -> Bool {
        state == .paused || (barUntil.map { now < $0 } ?? false)
    }

    private func told(now: Int, heard: Double) -> Effect {
        .told(state, behindMilliseconds: Int((behind(now: now, heard: heard) * 1000).rounded()))
    }

    private static func seconds(_ milliseconds: Int) -> Double { Double(milliseconds) / 1000 }
}
