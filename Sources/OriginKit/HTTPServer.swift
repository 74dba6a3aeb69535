import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Synchronization

/// The origin's HTTP/1.1 server (SwiftNIO), on loopback only. It carries out
/// the router's replies, faults included: a delay before the answer, a paced
/// body, a short body, a reset connection or no answer at all.
public final class OriginHTTPServer: Sendable {
    /// What the server answers each request with.
    public typealias Responder = @Sendable (OriginRequest) -> OriginReply
    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel
    public let port: Int

    private init(group: MultiThreadedEventLoopGroup, channel: any Channel, port: Int) {
        self.group = group
        self.channel = channel
        self.port = port
    }

    /// Binds `host`:`port` (0 picks a free port) and starts serving the origin's router,
    /// made once the port is known.
    public static func start(host: String = "127.0.0.1", port: Int, router: @escaping @Sendable (Int) -> OriginRouter,
                             tls: OriginTLS? = nil, accessLog: (@Sendable (String) -> Void)? = nil) async throws -> OriginHTTPServer {
        try await start(host: host, port: port, responder: { port in router(port).reply(to:) }, tls: tls, accessLog: accessLog)
    }

    /// Binds `host`:`port` (0 picks a free port; the host is loopback unless a bench puts the
    /// origin behind a shaped link) and serves the replies of `responder(port)` (a test's own
    /// small server, say). With `tls`, the server speaks https only (its certificate and key from the PEM files).
    public static func start(host: String = "127.0.0.1", port: Int, responder: @escaping @Sendable (Int) -> Responder,
                             tls: OriginTLS? = nil, accessLog: (@Sendable (String) -> Void)? = nil) async throws -> OriginHTTPServer {
        let sslContext = try tls.map { try $0.context() }
        let scheme = tls == nil ? "http" : "https"
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let responderBox = ResponderBox()
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    // A connection in the instant between bind and the responder's creation is refused.
                    guard let responder = responderBox.responder else { throw ChannelError.ioOnClosedChannel }
                    let sync = channel.pipeline.syncOperations
                    if let sslContext { try sync.addHandler(NIOSSLServerHandler(context: sslContext)) }
                    try sync.configureHTTPServerPipeline(withErrorHandling: true)
                    try sync.addHandler(OriginHTTPHandler(responder: responder, scheme: scheme, accessLog: accessLog))
                }
            }
        let channel: any Channel
        do {
            channel = try await bootstrap.bind(host: host, port: port).get()
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
        let boundPort = channel.localAddress?.port ?? port
        responderBox.responder = responder(boundPort)
        return OriginHTTPServer(group: group, channel: channel, port: boundPort)
    }

    /// Serves until the server is closed.
    public func run() async throws {
        try await channel.closeFuture.get()
    }

    public func shutdown() async {
        try? await channel.close()
        try? await group.shutdownGracefully()
    }
}

/// The certificate (chain) and private key an https listener presents, as PEM files.
public struct OriginTLS: Sendable {
    public var certificateFile: String
    public var keyFile: String

    public init(certificateFile: String, keyFile: String) {
        self.certificateFile = certificateFile
        self.keyFile = keyFile
    }

    func context() throws -> NIOSSLContext {
        let chain = try NIOSSLCertificate.fromPEMFile(certificateFile).map { NIOSSLCertificateSource.certificate($0) }
        let key = try NIOSSLPrivateKey(file: keyFile, format: .pem)
        return try NIOSSLContext(configuration: .makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(key)))
    }
}

/// A body made as it is sent (a live stream): asked for its next bytes every 50 ms.
public protocol OriginStream: AnyObject, Sendable {
    func next() -> OriginStreamStep
    /// The connection closed (the peer went away, or the body ended).
    func closed()
}

extension OriginStream {
    public func closed() {}
}

public enum OriginStreamStep: Sendable {
    /// The bytes due now (maybe none).
    case bytes(Data)
    /// The body ends here.
    case end
    /// The connection is dropped here, mid-body.
    case drop
}

/// Set once, right after binding.
private final class ResponderBox: Sendable {
    private let stored = Mutex<OriginHTTPServer.Responder?>(nil)
    var responder: OriginHTTPServer.Responder? {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }
}

private final class OriginHTTPHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let responder: OriginHTTPServer.Responder
    private let scheme: String
    private let accessLog: (@Sendable (String) -> Void)?
    private var head: HTTPRequestHead?
    private var body = ByteBuffer()

    init(responder: @escaping OriginHTTPServer.Responder, scheme: String, accessLog: (@Sendable (String) -> Void)?) {
        self.responder = responder
        self.scheme = scheme
        self.accessLog = accessLog
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let requestHead):
            head = requestHead
            body.clear()
        case .body(var chunk):
            body.writeBuffer(&chunk)
        case .end:
            guard let head else { return }
            self.head = nil
            let pathAndQuery = head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
            let path = String(pathAndQuery.first ?? "/")
            var request = OriginRequest(method: head.method.rawValue, path: path,
                                        host: head.headers.first(name: "host"),
                                        body: Data(body.readableBytesView))
            request.query = pathAndQuery.count == 2 ? String(pathAndQuery[1]) : nil
            request.scheme = scheme
            request.userAgent = head.headers.first(name: "user-agent")
            request.referrer = head.headers.first(name: "referer")
            request.origin = head.headers.first(name: "origin")
            request.range = head.headers.first(name: "range")
            let reply = responder(request)
            accessLog?("\(head.method.rawValue) \(head.uri) -> \(reply.status) \(reply.body.count) B")
            respond(reply, to: head, context: context)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private func respond(_ reply: OriginReply, to head: HTTPRequestHead, context: ChannelHandlerContext) {
        let loop = context.eventLoop.assumeIsolated()
        let delivery = reply.delivery
        let start = {
            if delivery.dropConnection {
                self.reset(context)
                return
            }
            self.send(reply, to: head, context: context)
        }
        if delivery.delayMs > 0 {
            loop.scheduleTask(in: .milliseconds(Int64(delivery.delayMs))) { start() }
        } else {
            start()
        }
    }

    private func send(_ reply: OriginReply, to head: HTTPRequestHead, context: ChannelHandlerContext) {
        if let stream = reply.stream {
            sendStream(stream, reply, to: head, context: context)
            return
        }
        let delivery = reply.delivery
        let announced = delivery.endless ? 1 << 40 : delivery.truncateTo ?? reply.body.count
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: reply.contentType)
        headers.add(name: "Content-Length", value: "\(announced)")
        headers.add(name: "Cache-Control", value: reply.contentType.contains("mpegurl") ? "no-cache" : "max-age=60")
        headers.add(name: "Access-Control-Allow-Origin", value: "*")
        if let location = reply.location { headers.add(name: "Location", value: location) }
        if let range = reply.contentRange { headers.add(name: "Content-Range", value: range) }
        let keepAlive = head.isKeepAlive && delivery.resetAfter == nil
        headers.add(name: "Connection", value: keepAlive ? "keep-alive" : "close")
        let status = HTTPResponseStatus(statusCode: reply.status)
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))),
                      promise: nil)

        let toSend = head.method == .HEAD ? 0 : min(announced, delivery.resetAfter ?? announced)
        let body = reply.body.prefix(toSend)
        if delivery.endless, !body.isEmpty {
            sendForever(body, bytesPerSecond: delivery.bytesPerSecond ?? 8 << 20, context: context)
            return
        }
        let finish = {
            if delivery.resetAfter != nil, head.method != .HEAD {
                context.flush()
                self.reset(context)
                return
            }
            context.writeAndFlush(self.wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
                if !keepAlive { context.close(promise: nil) }
            }
        }
        guard let rate = delivery.bytesPerSecond, !body.isEmpty else {
            if !body.isEmpty {
                context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
            }
            finish()
            return
        }
        // Paced: a slice every 50 ms.
        let tick = 50
        let slice = max(1, rate * tick / 1000)
        var offset = body.startIndex
        func nextSlice() {
            guard context.channel.isActive else { return }
            let end = min(offset + slice, body.endIndex)
            context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body[offset..<end])))),
                                  promise: nil)
            offset = end
            if offset >= body.endIndex {
                finish()
            } else {
                context.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(Int64(tick))) { nextSlice() }
            }
        }
        nextSlice()
    }

    /// A made body, chunked (no Content-Length), every 50 ms what is due, until it ends or the peer goes away.
    private func sendStream(_ stream: any OriginStream, _ reply: OriginReply, to head: HTTPRequestHead, context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: reply.contentType)
        headers.add(name: "Cache-Control", value: "no-cache")
        headers.add(name: "Connection", value: "close")
        let status = HTTPResponseStatus(statusCode: reply.status)
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))), promise: nil)
        func end() {
            context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        }
        context.channel.closeFuture.whenComplete { _ in stream.closed() }
        guard head.method != .HEAD else { return end() }
        func tick() {
            guard context.channel.isActive else { return }
            switch stream.next() {
            case .bytes(let data):
                if !data.isEmpty {
                    context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: data)))), promise: nil)
                }
                context.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(50)) { tick() }
            case .end: end()
            case .drop: context.close(promise: nil)
            }
        }
        tick()
    }

    /// The body again and again, paced, until the peer goes away.
    private func sendForever(_ body: Data, bytesPerSecond: Int, context: ChannelHandlerContext) {
        let tick = 50
        let slice = max(1, bytesPerSecond * tick / 1000)
        var offset = body.startIndex
        func nextSlice() {
            guard context.channel.isActive else { return }
            var buffer = context.channel.allocator.buffer(capacity: slice)
            while buffer.readableBytes < slice {
                let end = min(offset + slice - buffer.readableBytes, body.endIndex)
                buffer.writeBytes(body[offset..<end])
                offset = end == body.endIndex ? body.startIndex : end
            }
            context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
            context.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(Int64(tick))) { nextSlice() }
        }
        nextSlice()
    }

    /// Closes with SO_LINGER 0, so the peer sees a TCP reset.
    private func reset(_ context: ChannelHandlerContext) {
        guard let provider = context.channel as? any SocketOptionProvider else {
            context.close(promise: nil)
            return
        }
        provider.setSoLinger(linger(l_onoff: 1, l_linger: 0)).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }
}
