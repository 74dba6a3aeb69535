import AsyncHTTPClient
import Foundation
import ZapperCore

/// What a channel's URL answered, told by the answer's first bytes and its
/// `Content-Type` (`StreamKind`), never by the URL: a playlist, read whole, or a raw
/// MPEG-TS stream, its first bytes read and the rest still to come.
enum FirstAnswer {
    case playlist(text: String, url: URL)
    case mpegTS(TSBody)
}

/// An open raw MPEG-TS body: the URL that answered, the bytes read to know it, and the rest.
struct TSBody {
    var url: URL
    var head: [UInt8]
    var rest: HTTPClientResponse.Body.AsyncIterator
}

extension HTTPFetcher {
    /// Opens `url` and reads enough of its answer to know its kind. Neither HLS nor
    /// MPEG-TS (a web page, a DASH manifest, an empty body) throws a failure of kind
    /// `.unsupported` whose reason says which. A playlist is read whole: at most
    /// `limit` bytes, within `seconds`, as `document` reads one.
    func firstAnswer(_ url: URL, limit: Int = 8 << 20, seconds: Double = 20) async throws -> FirstAnswer {
        let deadline = Self.now() + seconds
        let opened = try await open(url)
        let contentType = opened.response.headers.first(name: "Content-Type")
        var rest = opened.response.body.makeAsyncIterator()
        var head: [UInt8] = []
        var kind: StreamKind?
        while kind == nil {
            let chunk = try await rest.next()
            if let chunk { head += chunk.readableBytesView }
            kind = StreamKind.sniff(contentType: contentType, head: head, ended: chunk == nil)
            try Self.check(deadline: deadline, url: opened.url, bytes: head.count)
        }
        switch kind! {
        case .mpegTS:
            return .mpegTS(TSBody(url: opened.url, head: head, rest: rest))
        case .neither(let form, let reason):
            throw Failure(url: opened.url.absoluteString, kind: .unsupported(form), reason: reason)
        case .hls:
            while let chunk = try await rest.next() {
                guard head.count + chunk.readableBytes <= limit else {
                    throw Failure(url: opened.url.absoluteString, kind: .tooLarge, reason: "larger than \(limit) bytes")
                }
                head += chunk.readableBytesView
                try Self.check(deadline: deadline, url: opened.url, bytes: head.count)
            }
            return .playlist(text: String(decoding: head, as: UTF8.self), url: opened.url)
        }
    }
}
