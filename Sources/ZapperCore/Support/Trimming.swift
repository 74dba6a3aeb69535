/// Trimming without Foundation: `trimmingCharacters(in: .whitespaces)` goes
/// through NSString and was a quarter of reading a 10,000-channel lineup.
extension Substring {
    /// Without leading and trailing spaces: tabs and Unicode space separators (what
    /// Foundation's `.whitespaces` holds), looked at scalar by scalar.
    public var trimmingSpaces: Substring {
        let scalars = unicodeScalars
        var start = scalars.startIndex
        var end = scalars.endIndex
        while start < end, Self.isSpace(scalars[start]) { start = scalars.index(after: start) }
        while end > start, Self.isSpace(scalars[scalars.index(before: end)]) { end = scalars.index(before: end) }
        return self[start..<end]
    }

    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || (scalar.value >= 0x80 && scalar.properties.generalCategory == .spaceSeparator)
    }
}

extension String {
    /// `Substring.trimmingSpaces`, as a string.
    public var trimmedSpaces: String { String(Substring(self).trimmingSpaces) }
}
