/// What a radio channel shows while it plays: no picture, so its logo, number and name
/// and what is on now and next, on a card that drifts slowly about the upper part of the
/// screen so that nothing stays lit in one place for hours (a lobby's screen burns in).
///
/// The rules:
/// - The card moves in steps of `stepMilliseconds` along a slow figure (one way round in
///   several minutes): the overlay is drawn again only at each step, not every frame.
/// - `drift` is the card's place in the room it has, from -1 to 1 each way (0: centred).
public struct RadioScreen: Sendable, Equatable {
    public var channel: ChannelIdentity
    public var now: ProgrammeLine?
    public var next: ProgrammeLine?
    public var driftX: Double
    public var driftY: Double

    /// How often the card moves.
    public static let stepMilliseconds = 4000
    /// Steps of one way round, across and down (prime to each other, so the path covers the room).
    static let periods = (across: 53.0, down: 37.0)

    public init(channel: ChannelIdentity, now: ProgrammeLine? = nil, next: ProgrammeLine? = nil, at milliseconds: Int) {
        self.channel = channel
        self.now = now
        self.next = next
        let step = Double(milliseconds / Self.stepMilliseconds)
        driftX = Self.wave(step / Self.periods.across)
        driftY = Self.wave(step / Self.periods.down)
    }

    /// A triangle wave, -1 to 1, one period a turn: the card moves at an even speed.
    static func wave(_ turns: Double) -> Double {
        let fraction = turns - turns.rounded(.down)
        return fraction < 0.5 ? 4 * fraction - 1 : 3 - 4 * fraction
    }
}
