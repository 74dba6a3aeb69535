import Foundation

/// What a channel's URL answers with, judged by the answer's first bytes and its
/// `Content-Type`, never by the URL: an HLS playlist, a raw MPEG-TS byte stream
/// (Xtream Codes `/live/…`, `/play/a013`, udpxy `/udp/GROUP:PORT`), or neither,
/// with the reason in words.
public enum StreamKind: Sendable, Equatable {
    case hls
    case mpegTS
    case neither(UnsupportedForm, reason: String)

    /// Bytes enough to decide: every answer is decided by this many (or by its end); a
    /// playlist, a web page or a DASH manifest by its first line.
    public static let sniffBytes = 4 * TSPacket.size
    /// MPEG-TS is recognised by this many sync bytes in a row, one packet apart.
    static let syncRun = 3

    /// The kind of an answer whose body begins with `head` (`ended`: that is the whole
    /// body); nil while more bytes are needed to tell.
    public static func sniff(contentType: String?, head: [UInt8], ended: Bool) -> StreamKind? {
        let type = mediaType(contentType)
        if head.isEmpty {
            return ended ? .neither(.empty, reason: "an empty answer (HTTP 200 with no body)") : nil
        }
        let text = leadingText(head)
        if text.hasPrefix("#EXTM3U") { return .hls }
        if syncOffset(head) != nil { return .mpegTS }
        if type == "text/html" || text.hasPrefix("<!doctype html") || text.hasPrefix("<html") {
            return .neither(.webPage, reason: "the server sent a web page (text/html), not a stream")
        }
        if type == "application/dash+xml" || (text.hasPrefix("<") && text.contains("<mpd")) {
            return .neither(.dash, reason: "a DASH manifest (.mpd): only HLS and MPEG-TS play")
        }
        // Too few bytes to tell (a slow server may send a few at a time): wait for more, unless the body ended.
        if head.count < sniffBytes && !ended { return nil }
        if isHLS(type) { return .hls }  // the playlist parser says what is wrong with it
        let said = type.map { " (\($0))" } ?? ""
        if isTS(type) { return .neither(.notAStream, reason: "the server said MPEG-TS\(said) but sent no MPEG-TS packets") }
        return .neither(.notAStream, reason: "neither an HLS playlist nor an MPEG-TS stream\(said)")
    }

    /// Where the first run of `syncRun` packets begins in `bytes` (within the first packet).
    public static func syncOffset(_ bytes: [UInt8]) -> Int? {
        let span = (syncRun - 1) * TSPacket.size
        guard bytes.count > span else { return nil }
        return (0..<min(TSPacket.size, bytes.count - span)).first { start in
            (0..<syncRun).allSatisfy { bytes[start + $0 * TSPacket.size] == TSPacket.sync }
        }
    }

    /// The media type alone, lower-cased, without parameters (`; charset=…`).
    static func mediaType(_ contentType: String?) -> String? {
        guard let contentType else { return nil }
        let type = contentType.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
        let trimmed = type.trimmingCharacters(in: .whitespaces).lowercased()
        return trimmed.isEmpty ? nil : trimmed
    }

    static func isHLS(_ type: String?) -> Bool {
        ["application/vnd.apple.mpegurl", "application/x-mpegurl", "audio/mpegurl", "audio/x-mpegurl"].contains(type ?? "")
    }

    static func isTS(_ type: String?) -> Bool { ["video/mp2t", "video/mpeg"].contains(type ?? "") }

    /// The head as lower-case text (bar the `#EXTM3U` tag), after a byte order mark and white space.
    private static func leadingText(_ head: [UInt8]) -> String {
        var bytes = head.prefix(512)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        let text = String(decoding: bytes, as: UTF8.self).drop { $0.isWhitespace }
        return text.hasPrefix("#EXTM3U") ? "#EXTM3U" : text.lowercased()
    }
}
