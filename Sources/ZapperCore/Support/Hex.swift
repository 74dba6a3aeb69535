/// Hexadecimal text to bytes: an even number of hex digits and nothing else
/// (no sign, no spaces), or nil.
public enum Hex {
    public static func bytes(_ text: Substring) -> [UInt8]? {
        guard text.count % 2 == 0, text.allSatisfy(\.isHexDigit) else { return nil }
        var result: [UInt8] = []
        result.reserveCapacity(text.count / 2)
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            guard let byte = UInt8(text[index..<next], radix: 16) else { return nil }
            result.append(byte)
            index = next
        }
        return result
    }
}
