import Foundation

/// Makes a byte stream valid UTF-8, chunk by chunk: each invalid sequence
/// becomes U+FFFD, and a sequence cut by a chunk's end waits for the next.
///
/// For XMLTV guides: libxml2 stops at the first byte that is not UTF-8 in a
/// UTF-8 document, and a whole guide is lost for one mis-encoded accent in a
/// title. A guide that says it is UTF-8 (or says nothing, or names an
/// encoding nobody knows) is repaired before the parser sees it; one in an
/// encoding libxml2 knows (`encoding="ISO-8859-1"`, `"Shift_JIS"`) is
/// converted to UTF-8 by libxml2 and left alone.
public struct UTF8Repair: Sendable {
    private var carry: [UInt8] = []
    /// Whether the stream is repaired at all: decided by `first(_:)` from the XML declaration.
    public private(set) var active = true
    /// Whether any byte had to be replaced.
    public private(set) var replacedAny = false

    public init() {}

    /// The first chunk of an XML document: it decides whether the rest is repaired
    /// (UTF-8, declared or by default) or passed through (another declared encoding, or UTF-16).
    public mutating func first(_ chunk: [UInt8]) -> [UInt8] {
        active = Self.isUTF8(declaration: chunk)
        return feed(chunk)
    }

    /// The next chunk, repaired (possibly a few bytes short: they come with the next one).
    public mutating func feed(_ chunk: [UInt8]) -> [UInt8] {
        guard active else { return chunk }
        var bytes = carry
        bytes += chunk
        let split = Self.completeLength(bytes)
        carry = Array(bytes[split...])
        return repair(bytes[..<split])
    }

    /// The end of the stream: an unfinished sequence becomes U+FFFD.
    public mutating func finish() -> [UInt8] {
        defer { carry = [] }
        return carry.isEmpty ? [] : repair(carry[...])
    }

    private mutating func repair(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        // The standard library validates fast and replaces each invalid sequence with U+FFFD.
        let repaired = Array(String(decoding: bytes, as: UTF8.self).utf8)
        if repaired.count != bytes.count || !repaired.elementsEqual(bytes) { replacedAny = true }
        return repaired
    }

    /// How many bytes end with a whole sequence: a lead byte among the last three
    /// whose sequence does not fit is held back.
    static func completeLength(_ bytes: [UInt8]) -> Int {
        var back = 1
        while back <= min(3, bytes.count) {
            let byte = bytes[bytes.count - back]
            if byte & 0xC0 == 0x80 {
                back += 1
                continue
            }
            guard byte >= 0xC0 else { return bytes.count }
            let needed = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
            return needed > back ? bytes.count - back : bytes.count
        }
        return bytes.count
    }

    /// UTF-8 unless the document starts with a UTF-16 byte order mark or its XML
    /// declaration names an encoding libxml2 converts (`passesThrough`).
    static func isUTF8(declaration chunk: [UInt8]) -> Bool {
        if chunk.starts(with: [0xFE, 0xFF]) || chunk.starts(with: [0xFF, 0xFE]) { return false }
        let head = chunk.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(chunk.dropFirst(3).prefix(256)) : Array(chunk.prefix(256))
        guard head.starts(with: Array("<?xml".utf8)), let end = head.firstIndex(of: UInt8(ascii: ">")) else { return true }
        let declaration = String(decoding: head[..<end], as: UTF8.self).lowercased()
        guard let range = declaration.range(of: "encoding") else { return true }
        let value = declaration[range.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\"" || $0 == "'" }
            .prefix { $0 != "\"" && $0 != "'" && $0 != " " }
        return !passesThrough(String(value))
    }

    /// The declared encodings left to libxml2: those it converts to UTF-8 itself
    /// (bytes that do not convert stop it with an error). Any other name (a typo,
    /// garbage) it reads as UTF-8, so those are repaired.
    static func passesThrough(_ encoding: String) -> Bool {
        let name = encoding.replacingOccurrences(of: "_", with: "-")
        let known: Set<String> = ["latin1", "latin-1", "us-ascii", "ascii", "utf-16", "utf-16le", "utf-16be",
                                  "shift-jis", "sjis", "euc-jp", "euc-kr", "gb2312", "gbk", "gb18030", "big5",
                                  "koi8-r", "koi8-u"]
        if known.contains(name) { return true }
        for (prefix, numbers) in [("iso-8859-", 1...16), ("windows-", 1250...1258), ("cp", 1250...1258)] where name.hasPrefix(prefix) {
            if let number = Int(name.dropFirst(prefix.count)), numbers.contains(number) { return true }
        }
        return false
    }
}
