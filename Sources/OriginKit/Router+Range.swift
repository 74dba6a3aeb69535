import Foundation

extension OriginReply {
    /// A whole `200` reply cut to the one byte range a `Range` header asks for (`bytes=A-B`
    /// or `bytes=A-`): `206` with its `Content-Range`, the end clipped to the body; a start past
    /// the body: `416`. Anything else (no header, several ranges, another unit, a reply that is
    /// not a plain whole body) is answered whole, as a server that ignores Range does.
    func answering(range header: String?) -> OriginReply {
        guard let header, status == 200, stream == nil, !delivery.endless,
              let range = Self.byteRange(header), !body.isEmpty else { return self }
        guard range.start < body.count else {
            var refused = OriginReply.text(416, "range not satisfiable")
            refused.contentRange = "bytes */\(body.count)"
            return refused
        }
        let end = min(range.end ?? (body.count - 1), body.count - 1)
        var cut = self
        cut.status = 206
        cut.body = body.subdata(in: (body.startIndex + range.start)..<(body.startIndex + end + 1))
        cut.contentRange = "bytes \(range.start)-\(end)/\(body.count)"
        return cut
    }

    /// `bytes=A-B` or `bytes=A-`, with A ≤ B; nil for anything else.
    static func byteRange(_ header: String) -> (start: Int, end: Int?)? {
        let value = header.trimmingCharacters(in: .whitespaces)
        guard value.hasPrefix("bytes="), !value.contains(",") else { return nil }
        let parts = value.dropFirst(6).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let start = Int(parts[0]), start >= 0 else { return nil }
        if parts[1].isEmpty { return (start, nil) }
        guard let end = Int(parts[1]), end >= start else { return nil }
        return (start, end)
    }
}
