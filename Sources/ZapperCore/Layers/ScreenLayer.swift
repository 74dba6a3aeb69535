/// A mode that takes keys and draws over the picture: the swipe-up panel, the guide, the PIN
/// card, a reminder's notice, standby, time-shift's transport. Each is a value with the
/// tuner's shape: offered a key (in `KeyPrecedence`'s order) and told the time, it answers with
/// effects the player carries out, and what it shows is read from it. A layer knows nothing of
/// the others: one that closes another does so through the player's effects.
public protocol ScreenLayer: Sendable {
    associatedtype Effect: Sendable
    /// What the layer must know of the world to decide, asked for at each key and tick (not kept).
    associatedtype Context

    /// Its answer to a key: the effects, or nil when it does not take the key (the next layer
    /// is offered it). An empty answer took the key and changed only the layer itself.
    mutating func take(_ action: Action, now: Int, in context: Context) -> [Effect]?

    /// Its answer to time passing (`now`: milliseconds on the player's clock).
    mutating func tick(now: Int, in context: Context) -> [Effect]
}
