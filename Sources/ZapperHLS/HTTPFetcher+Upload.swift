import AsyncHTTPClient
import Foundation
import NIOCore
import ZapperCore

extension HTTPFetcher {
    /// PUTs `body` to an http(s) URL (a fleet's `screenshot` command names where): the pool's
    /// trust and User-Agent, no redirect followed, all of it within `seconds`; any answer but
    /// 2xx is a failure. The URL is the fleet operator's, not a lineup's: local addresses are
    /// allowed (`block-private-addresses` guards what lineups list).
    public func put(_ url: URL, body: [UInt8], contentType: String, seconds: Double = 30) async throws {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw Failure(url: url.absoluteString, kind: .refused, reason: "only http and https URLs may be uploaded to")
        }
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .PUT
        request.headers.add(name: "User-Agent", value: headers.userAgent ?? userAgent)
        request.headers.add(name: "Content-Type", value: contentType)
        request.body = .bytes(ByteBuffer(bytes: body))
        let response: HTTPClientResponse
        do {
            response = try await client.execute(request, timeout: .milliseconds(Int64(seconds * 1000)))
        } catch {
            throw Failure(url: url.absoluteString, clientError: error)
        }
        // The answer's body is not wanted: at most 64 kB of it is read and dropped.
        _ = try? await response.body.collect(upTo: 64 << 10)
        guard (200..<300).contains(Int(response.status.code)) else {
            throw Failure(url: url.absoluteString, kind: .http(status: Int(response.status.code)), reason: response.status.reasonPhrase)
        }
    }
}
