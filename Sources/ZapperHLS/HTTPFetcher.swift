import AsyncHTTPClient
import Dispatch
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization
import ZapperCore

/// Fetches playlists and segments over keep-alive HTTP(S) connections
/// (AsyncHTTPClient: its reads run on SwiftNIO's event loop threads, not on
/// the cooperative pool). Redirects are followed here, hop by hop, under
/// `FetchPolicy` (http(s) only, never from https to http, at most 5, and with
/// `blocksPrivateAddresses` never to a local address); the URL that finally
/// answered is returned with the response, for relative references.
///
/// One fetcher serves the whole process (one connection pool): `shared`.
/// Another must be shut down before it is released. `with(_:)` gives a view of
/// a fetcher that sends a channel's own headers, on the same pool.
public final class HTTPFetcher: Sendable {
    /// The process's fetcher, made on first use with the trust `trustShared` set.
    public static let shared: HTTPFetcher = {
        sharedTrust.withLock { state in
            state.made = true
            return HTTPFetcher(trust: state.trust)
        }
    }()
    private static let sharedTrust = Mutex<(trust: TLSTrust, made: Bool)>((.system, false))

    /// Sets which https servers `shared` believes; only before its first use
    /// (false after: its connection pool is made with the trust it had).
    @discardableResult
    public static func trustShared(_ trust: TLSTrust) -> Bool {
        sharedTrust.withLock { state in
            guard !state.made else { return false }
            state.trust = trust
            return true
        }
    }

    let client: HTTPClient
    public let requestTimeout: TimeAmount
    /// What every view of this pool shares: set at start from the configuration.
    private let settings: FetchSettings
    /// This view's headers (a channel's, from its lineup entry), over `settings.userAgent`.
    public let headers: RequestHeaders
    private let ownsClient: Bool

    /// The same pool and settings, sending `headers` on every request.
    public func with(_ headers: RequestHeaders) -> HTTPFetcher {
        headers.isEmpty && self.headers.isEmpty ? self : HTTPFetcher(sharing: self, headers: self.headers.overlaid(by: headers))
    }

    private init(sharing other: HTTPFetcher, headers: RequestHeaders) {
        client = other.client
        requestTimeout = other.requestTimeout
        settings = other.settings
        self.headers = headers
        ownsClient = false
    }

    public init(connectTimeout: TimeAmount = .seconds(5), requestTimeout: TimeAmount = .seconds(10), trust: TLSTrust = .system) {
        var configuration = HTTPClient.Configuration(
            tlsConfiguration: trust.configuration,
            redirectConfiguration: .disallow,
            timeout: .init(connect: connectTimeout, read: requestTimeout),
            connectionPool: .init(idleTimeout: .seconds(30), concurrentHTTP1ConnectionsPerHostSoftLimit: 4))
        // A refused connection fails its request at once (the session and the tuner retry with
        // their own backoff and say so), instead of being retried quietly until the connect timeout.
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.decompression = .disabled
        configuration.httpVersion = .http1Only
        client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        self.requestTimeout = requestTimeout
        settings = FetchSettings()
        headers = .none
        ownsClient = true
    }

    /// Refuse local addresses (`FetchPolicy.isLocal`): set at start from the
    /// configuration (`[network] block-private-addresses`).
    public var blocksPrivateAddresses: Bool {
        get { settings.blocksPrivateAddresses.load(ordering: .relaxed) }
        set { settings.blocksPrivateAddresses.store(newValue, ordering: .relaxed) }
    }

    /// The User-Agent of requests whose channel names none (logos, the guide, lineups too):
    /// set at start from the configuration's `user-agent`.
    public var userAgent: String {
        get { settings.userAgent.withLock { $0 } }
        set { settings.userAgent.withLock { $0 = newValue } }
    }

    public func shutdown() async {
        guard ownsClient else { return }
        try? await client.shutdown()
    }

    /// A fetch that failed: the URL, what kind of failure, and the reason in the library's words.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible, PlaybackFailureConvertible {
        public var url: String
        public var kind: PlaybackFailure.Kind
        public var reason: String

        public init(url: String, kind: PlaybackFailure.Kind, reason: String) {
            self.url = url
            self.kind = kind
            self.reason = reason
        }

        /// A failure of the HTTP client itself (no answer, a connection that failed).
        init(url: String, clientError: any Error) {
            self.init(url: url, kind: HTTPFailureKind.of(clientError), reason: "\(clientError)")
        }

        public var status: Int? {
            if case .http(let status) = kind { return status }
            return nil
        }

        public var description: String { "\(url): \(status.map { "HTTP \($0)" } ?? reason)" }
        public var playbackFailure: PlaybackFailure { PlaybackFailure(kind, description) }
    }

    /// Why a fetch failed, in a few words: "HTTP 404", or the client's error.
    public static func reason(_ error: any Error) -> String {
        guard let failure = error as? Failure else { return "\(error)" }
        return failure.status.map { "HTTP \($0)" } ?? failure.reason
    }

    /// A whole small document (a playlist), as text: at most `limit` bytes, all of
    /// it within `seconds` of the request (a server that trickles a byte now and
    /// then never trips the per-read timeout).
    public func text(_ url: URL, limit: Int = 8 << 20, seconds: Double = 20) async throws -> String {
        try await document(url, limit: limit, seconds: seconds).text
    }

    /// `text`, with the URL that finally answered (after redirects): relative
    /// references in the document resolve against it.
    public func document(_ url: URL, limit: Int = 8 << 20, seconds: Double = 20) async throws -> (text: String, url: URL) {
        let deadline = Self.now() + seconds
        let opened = try await open(url)
        var body = try await collect(opened.response.body, url: opened.url, limit: limit, deadline: deadline)
        return (body.readString(length: body.readableBytes) ?? "", opened.url)
    }

    public static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// Throws when `deadline` (on `now()`) has passed: a body's whole time is bounded, not only each read's.
    public static func check(deadline: Double, url: URL, bytes: Int) throws {
        guard now() <= deadline else {
            throw Failure(url: url.absoluteString, kind: .timeout, reason: "\(bytes) bytes, and the rest too slow in coming")
        }
    }

    private func collect(_ body: HTTPClientResponse.Body, url: URL, limit: Int, deadline: Double) async throws -> ByteBuffer {
        var collected = ByteBuffer()
        for try await var chunk in body {
            guard collected.readableBytes + chunk.readableBytes <= limit else {
                throw Failure(url: url.absoluteString, kind: .tooLarge, reason: "larger than \(limit) bytes")
            }
            collected.writeBuffer(&chunk)
            try Self.check(deadline: deadline, url: url, bytes: collected.readableBytes)
        }
        return collected
    }

    /// A whole small resource (a logo, a key, an initialization section), as
    /// bytes; of a byte range, only those bytes, even from a server that
    /// ignores Range and answers with the whole resource.
    public func bytes(_ url: URL, byteRange: HLSByteRange? = nil, limit: Int = 1 << 20, seconds: Double = 20) async throws -> [UInt8] {
        let deadline = Self.now() + seconds
        let response = try await start(url, byteRange: byteRange)
        guard let byteRange, response.status == .ok else {
            var body = try await collect(response.body, url: url, limit: limit, deadline: deadline)
            return body.readBytes(length: body.readableBytes) ?? []
        }
        // The server ignored Range: cut the range out as the body streams by, keeping
        // only the range, and reading past at most `limit` bytes before it.
        guard byteRange.length <= limit, byteRange.offset <= limit else {
            throw Failure(url: url.absoluteString, kind: .tooLarge,
                          reason: "the server ignored Range, and the range \(byteRange.length)@\(byteRange.offset) is past \(limit) bytes")
        }
        var cut = ByteRangeCut(byteRange)
        var bytes: [UInt8] = []
        var seen = 0
        for try await chunk in response.body {
            seen += chunk.readableBytes
            let kept = cut.keep(count: chunk.readableBytes)
            bytes += chunk.readableBytesView.dropFirst(kept.lowerBound).prefix(kept.count)
            if cut.isComplete { return bytes }
            try Self.check(deadline: deadline, url: url, bytes: seen)
        }
        throw Failure(url: url.absoluteString, kind: .truncated, reason: "\(seen) bytes, shorter than the range \(byteRange.length)@\(byteRange.offset)")
    }

    /// Starts a request and returns once the head is in (status 200 checked):
    /// the body then streams.
    public func start(_ url: URL, byteRange: HLSByteRange? = nil) async throws -> HTTPClientResponse {
        try await open(url, byteRange: byteRange).response
    }

    /// A response whose head is in, and the URL that gave it.
    public struct Opened: Sendable {
        public var response: HTTPClientResponse
        public var url: URL
    }

    /// `start`, following redirects hop by hop under `FetchPolicy`.
    public func open(_ url: URL, byteRange: HLSByteRange? = nil) async throws -> Opened {
        var current = url
        var visited = [url]
        while true {
            try await admit(current)
            var request = HTTPClientRequest(url: current.absoluteString)
            request.headers.add(name: "User-Agent", value: headers.userAgent ?? userAgent)
            if let referrer = headers.referrer { request.headers.add(name: "Referer", value: referrer) }
            if let origin = headers.origin { request.headers.add(name: "Origin", value: origin) }
            if let byteRange {
                request.headers.add(name: "Range", value: "bytes=\(byteRange.offset)-\(byteRange.offset + byteRange.length - 1)")
            }
            let response: HTTPClientResponse
            do {
                response = try await client.execute(request, timeout: requestTimeout)
            } catch {
                if let problem = await CertificateDiagnosis.problem(of: error, url: current) {
                    throw Failure(url: current.absoluteString, kind: .certificate(problem), reason: "\(problem.words): \(error)")
                }
                throw Failure(url: current.absoluteString, clientError: error)
            }
            let status = Int(response.status.code)
            if FetchPolicy.redirectStatuses.contains(status) {
                // The redirect's own body is not read: dropping it closes that connection.
                switch FetchPolicy.redirect(from: current, location: response.headers.first(name: "Location"), visited: visited) {
                case .failure(let rejection):
                    throw Failure(url: current.absoluteString, kind: .refused, reason: rejection.reason)
                case .success(let next):
                    current = next
                    visited.append(next)
                    continue
                }
            }
            guard response.status == .ok || (byteRange != nil && response.status == .partialContent) else {
                throw Failure(url: current.absoluteString, kind: .http(status: status), reason: response.status.reasonPhrase)
            }
            return Opened(response: response, url: current)
        }
    }

    /// Refuses a URL that is not http(s), and with `blocksPrivateAddresses` one
    /// whose host is, or resolves to, a local address. (The connection resolves
    /// the name again: a DNS answer that changes in between is not caught.)
    private func admit(_ url: URL) async throws {
        guard case .success = MediaURLPolicy.check(url.absoluteString) else {
            throw Failure(url: url.absoluteString, kind: .refused, reason: "only http and https URLs may be fetched")
        }
        guard blocksPrivateAddresses, let host = url.host else { return }
        let blocked = "and local addresses are blocked (block-private-addresses)"
        if FetchPolicy.isLocalName(host) {
            throw Failure(url: url.absoluteString, kind: .refused, reason: "\(host) is a local name, \(blocked)")
        }
        let addresses: [[UInt8]]
        do {
            addresses = try await HostAddresses.resolve(host)
        } catch {
            throw Failure(url: url.absoluteString, kind: .unreachable, reason: "\(error)")
        }
        if let local = addresses.first(where: FetchPolicy.isLocal(address:)) {
            throw Failure(url: url.absoluteString, kind: .refused, reason: "\(host) is \(HostAddresses.text(local)), \(blocked)")
        }
    }
}
