import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization
import ZapperCore

/// A request to the box's HTTP listener: its method, path, query, headers and (bounded) body.
public struct FleetRequest: Sendable {
    public var method: String
    public var path: String
    public var query: String?
    /// Header names lower-cased (`authorization`, for a later route's bearer token).
    public var headers: [String: String]
    public var body: [UInt8]
    /// The address the request came from (`APIGate`'s client).
    public var client: String
}

/// What a route answers.
public struct FleetReply: Sendable, Equatable {
    public var status: Int
    public var contentType: String
    public var body: [UInt8]
    /// Its `Content-Security-Policy` (every answer gets at least `frame-ancestors 'none'`).
    public var securityPolicy: String

    public static let framesNone = "frame-ancestors 'none'"

    public init(status: Int, contentType: String = "text/plain; charset=utf-8", body: [UInt8], securityPolicy: String = FleetReply.framesNone) {
        self.status = status
        self.contentType = contentType
        self.body = body
        self.securityPolicy = securityPolicy
    }

    public init(status: Int, text: String) {
        self.init(status: status, body: Array((text + "\n").utf8))
    }
}

/// The routes of the listener, by method and exact path. A route answers through `answer`, once,
/// now or later from any thread (a command waits for the player's reply); it must not block.
public struct FleetRoutes: Sendable {
    public typealias Handler = @Sendable (FleetRequest, _ answer: @escaping @Sendable (FleetReply) -> Void) -> Void
    private var handlers: [String: [String: Handler]] = [:]

    public init() {}

    /// Adds (or replaces) the route of `method` (`GET`, `POST`, …) at `path`.
    public mutating func add(_ method: String, _ path: String, _ handler: @escaping Handler) {
        handlers[path, default: [:]][method] = handler
    }

    /// The handler for the request, or the reply that refuses it (404 unknown path, 405 other method).
    func route(_ method: String, _ path: String) -> Result<Handler, FleetRefusal> {
        guard let byMethod = handlers[path] else { return .failure(FleetRefusal(reply: FleetReply(status: 404, text: "no such path"))) }
        if let handler = byMethod[method] ?? (method == "HEAD" ? byMethod["GET"] : nil) { return .success(handler) }
        return .failure(FleetRefusal(reply: FleetReply(status: 405, text: "\(method) not allowed; \(byMethod.keys.sorted().joined(separator: ", ")) are")))
    }
}

struct FleetRefusal: Error {
    let reply: FleetReply
}

/// The box's small HTTP/1.1 listener (SwiftNIO, one thread of its own): `/metrics` and the API
/// (`FleetRoutes`). Request bodies are bounded (`maxBodyBytes`), headers by NIO's parser, the
/// connections and their time by `FleetConnections`; a `Host` the `HostRule` does not allow is
/// answered 421, and no answer may be framed by another page.
public final class FleetHTTPServer: Sendable {
    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel
    /// The port bound (the one asked for, or the free one taken for port 0).
    public let port: Int
    public static let maxBodyBytes = 64 * 1024

    private init(group: MultiThreadedEventLoopGroup, channel: any Channel, port: Int) {
        self.group = group
        self.channel = channel
        self.port = port
    }

    /// Binds `address` and serves `routes` until `shutdown`. Blocks the calling thread while it binds.
    public static func start(_ address: ListenAddress, routes: FleetRoutes, hosts: HostRule = HostRule(),
                             connections: FleetConnections = FleetConnections()) throws -> FleetHTTPServer {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 64)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let sync = channel.pipeline.syncOperations
                    try sync.configureHTTPServerPipeline(withErrorHandling: true)
                    try sync.addHandler(FleetConnectionGuard(connections))
                    try sync.addHandler(FleetHTTPHandler(routes: routes, hosts: hosts))
                }
            }
        do {
            let channel = try bootstrap.bind(host: address.host, port: address.port).wait()
            return FleetHTTPServer(group: group, channel: channel, port: channel.localAddress?.port ?? address.port)
        } catch {
            try? group.syncShutdownGracefully()
            throw error
        }
    }

    public func shutdown() {
        try? channel.close().wait()
        try? group.syncShutdownGracefully()
    }
}

private final class FleetHTTPHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let routes: FleetRoutes
    private let hosts: HostRule
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []
    private var tooLarge = false

    init(routes: FleetRoutes, hosts: HostRule) {
        self.routes = routes
        self.hosts = hosts
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let requestHead):
            head = requestHead
            body.removeAll()
            tooLarge = false
        case .body(let chunk):
            if body.count + chunk.readableBytes > FleetHTTPServer.maxBodyBytes {
                tooLarge = true
                body.removeAll()
            } else if !tooLarge {
                body.append(contentsOf: chunk.readableBytesView)
            }
        case .end:
            guard let head else { return }
            self.head = nil
            if tooLarge {
                respond(FleetReply(status: 413, text: "the body is over \(FleetHTTPServer.maxBodyBytes) bytes"), to: head, context: context)
                return
            }
            // A name a rebinding page could have pointed here reads nothing.
            let named = head.headers["host"]
            guard named.count <= 1, hosts.allows(named.first) else {
                respond(FleetReply(status: 421, text: "this box answers to its address, not to \"\(named.first ?? "")\" ([api] hostnames)"),
                        to: head, context: context)
                return
            }
            let parts = head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
            var headers: [String: String] = [:]
            for (name, value) in head.headers { headers[name.lowercased()] = value }
            let request = FleetRequest(method: head.method.rawValue, path: String(parts.first ?? "/"),
                                       query: parts.count == 2 ? String(parts[1]) : nil, headers: headers, body: body,
                                       client: context.remoteAddress?.ipAddress ?? "unknown")
            switch routes.route(request.method, request.path) {
            case .failure(let refusal):
                respond(refusal.reply, to: head, context: context)
            case .success(let handler):
                let loop = context.eventLoop
                let answered = Atomic<Bool>(false)
                let reply = NIOLoopBound((self, context), eventLoop: loop)
                handler(request) { answer in
                    guard !answered.exchange(true, ordering: .relaxed) else { return }
                    loop.execute {
                        let (handler, context) = reply.value
                        handler.respond(answer, to: head, context: context)
                    }
                }
            }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private func respond(_ reply: FleetReply, to head: HTTPRequestHead, context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: reply.contentType)
        headers.add(name: "Content-Length", value: "\(reply.body.count)")
        headers.add(name: "Connection", value: head.isKeepAlive ? "keep-alive" : "close")
        headers.add(name: "X-Frame-Options", value: "DENY")
        headers.add(name: "Content-Security-Policy", value: reply.securityPolicy)
        headers.add(name: "X-Content-Type-Options", value: "nosniff")
        headers.add(name: "Referrer-Policy", value: "no-referrer")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: HTTPResponseStatus(statusCode: reply.status),
                                                             headers: headers))), promise: nil)
        if head.method != .HEAD {
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: reply.body)))), promise: nil)
        }
        let keepAlive = head.isKeepAlive
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
            if !keepAlive { context.close(promise: nil) }
        }
    }
}
