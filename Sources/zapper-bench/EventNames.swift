import ZapperCore

extension [String: Any] {
    /// The event of a parsed log line, by the player's own list of names (nil: none it logs).
    var eventName: EventName? { (self["event"] as? String).flatMap(EventName.init(rawValue:)) }
}
