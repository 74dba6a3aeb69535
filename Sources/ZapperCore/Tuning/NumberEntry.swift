/// Digits typed toward a channel number, and when the entry's pause runs out.
/// The number is complete as soon as no channel's number goes on from the digits
/// typed (or `maxDigits` are typed); otherwise it waits for more until the pause.
struct NumberEntry: Sendable {
    private(set) var digits = ""
    /// When the pause runs out and the digits typed are taken as they are.
    private(set) var deadline: Int?

    var isEmpty: Bool { digits.isEmpty }

    /// Adds `digit`, typed at `now`; true when the number is complete.
    mutating func type(_ digit: Int, now: Int, settings: TunerSettings, channels: [Int]) -> Bool {
        digits += String(digit)
        deadline = now + settings.entryTimeout
        let longer = channels.contains { String($0).count > digits.count && String($0).hasPrefix(digits) }
        return !longer || digits.count >= settings.maxDigits
    }

    /// The number typed (nil: none), the entry empty after.
    mutating func take() -> Int? {
        defer { clear() }
        return Int(digits)
    }

    mutating func clear() {
        digits = ""
        deadline = nil
    }
}
