import ZapperCore

/// EV_KEY events of one device -> key presses and releases by the kernel's
/// name. Autorepeat (value 2) is dropped: the core times repeats. Each press
/// is matched by exactly one release, so a release whose press was never
/// seen (a key held while the device was opened) is dropped too, and
/// `releaseAll` lets go of what is held when the device goes away.
public struct KeyTranslator: Sendable {
    public let device: String
    private var held: [UInt16] = []

    public init(device: String) {
        self.device = device
    }

    public mutating func translate(_ event: InputEventRecord) -> KeyEvent? {
        guard event.type == Code.key else { return nil }
        return key(event.code, down: event.value == 1, up: event.value == 0)
    }

    /// A key by code; neither `down` nor `up` means an autorepeat.
    mutating func key(_ code: UInt16, down: Bool, up: Bool) -> KeyEvent? {
        guard let name = EvdevCodes.keyName(UInt32(code)) else { return nil }
        if down, !held.contains(code) {
            held.append(code)
            return KeyEvent(name: name, kind: .press, device: device)
        }
        if up, let index = held.firstIndex(of: code) {
            held.remove(at: index)
            return KeyEvent(name: name, kind: .release, device: device)
        }
        return nil
    }

    /// Releases for every key still held, oldest first.
    public mutating func releaseAll() -> [KeyEvent] {
        defer { held.removeAll() }
        return held.compactMap { code in
            EvdevCodes.keyName(UInt32(code)).map { KeyEvent(name: $0, kind: .release, device: device) }
        }
    }
}
