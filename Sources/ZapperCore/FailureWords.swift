/// A failure as the viewer reads it on the error card. The event log keeps the
/// technical reason (URL, errno, HTTP status); the card says what it means.
public enum FailureWords {
    public static func describe(_ technical: String) -> String {
        let text = technical.lowercased()
        func has(_ words: String...) -> Bool { words.contains { text.contains($0) } }
        if has("http 404", "http 410") { return "This channel is not on the air" }
        if has("http 401", "http 403") { return "This channel is not available here" }
        if let range = text.range(of: "http 5") , text[range.upperBound...].prefix(2).allSatisfy(\.isNumber) {
            return "The channel's server has a problem"
        }
        if has("timed out", "timeout", "deadline") { return "The channel is not responding" }
        if has("refused", "reset by peer", "unreachable", "connect", "closed", "eof") { return "The channel cannot be reached" }
        if has("has not moved", "stalled") { return "The channel stopped sending" }
        if has("no picture") { return "No picture from the channel" }
        if has("only http and https") { return "The channel's address is not allowed" }
        return "The channel cannot be played"
    }
}
