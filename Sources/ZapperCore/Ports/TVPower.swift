/// The TV's power, over HDMI-CEC on a box: to standby, and on again showing this box.
/// Calls come from the frame loop; each must return at once (the message is queued).
public protocol TVPower: Sendable {
    /// `<Standby>` to the TV.
    func standby() throws
    /// `<Image View On>` to the TV, then `<Active Source>` with this box's physical address.
    func wake() throws
}
