import NIOCore
import NIOHTTP1
import Synchronization

/// The listener's connections, bounded so that a flood from the network cannot take the
/// player's file descriptors or keep the owner out:
/// - At most `mostConnections` are open. A new one closes the one idle longest (waiting for a
///   request); when every one is busy with a request, the new one is closed instead.
/// - A request must arrive whole within `requestSeconds` of the connection opening or of its
///   previous answer: a connection that sends nothing, or a byte now and then (slowloris), is
///   closed then. While a request is being answered, its connection waits as long as it takes.
public final class FleetConnections: Sendable {
    public struct Limits: Sendable {
        public var mostConnections: Int
        public var requestSeconds: Int64

        public init(mostConnections: Int = 64, requestSeconds: Int64 = 10) {
            self.mostConnections = mostConnections
            self.requestSeconds = requestSeconds
        }
    }

    private struct Entry {
        let channel: any Channel
        /// When it began waiting for a request (nil: a request is being answered).
        var idleSince: NIODeadline?
    }

    public let limits: Limits
    private let open = Mutex<[ObjectIdentifier: Entry]>([:])
    private let closedForRoom = Atomic<Int>(0)

    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// How many are open now, and how many were closed to make room since the start.
    public var count: Int { open.withLock { $0.count } }
    public var closedToMakeRoom: Int { closedForRoom.load(ordering: .relaxed) }

    /// A new connection: room is made for it, or it is closed.
    func opened(_ channel: any Channel) {
        let now = NIODeadline.now()
        let victim: (any Channel)? = open.withLock { open in
            var victim: (any Channel)?
            if open.count >= limits.mostConnections {
                let idle = open.filter { $0.value.idleSince != nil }.min { $0.value.idleSince! < $1.value.idleSince! }
                victim = idle?.value.channel ?? channel
                if let idle { open[idle.key] = nil }
            }
            if victim !== channel { open[ObjectIdentifier(channel)] = Entry(channel: channel, idleSince: now) }
            return victim
        }
        if let victim {
            closedForRoom.add(1, ordering: .relaxed)
            victim.close(promise: nil)
        }
    }

    func busy(_ channel: any Channel, _ busy: Bool) {
        open.withLock { $0[ObjectIdentifier(channel)]?.idleSince = busy ? nil : .now() }
    }

    func closed(_ channel: any Channel) {
        _ = open.withLock { $0.removeValue(forKey: ObjectIdentifier(channel)) }
    }
}

/// One connection's part of `FleetConnections`, after the HTTP decoder: a request's end makes
/// it busy, its answer's end idle again, with the deadline for the next request armed.
final class FleetConnectionGuard: ChannelDuplexHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let connections: FleetConnections
    private var deadline: Scheduled<Void>?

    init(_ connections: FleetConnections) {
        self.connections = connections
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    private var started = false
    private func start(_ context: ChannelHandlerContext) {
        guard !started else { return }
        started = true
        connections.opened(context.channel)
        arm(context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        connections.closed(context.channel)
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .end = unwrapInboundIn(data) {
            deadline?.cancel()
            deadline = nil
            connections.busy(context.channel, true)
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            connections.busy(context.channel, false)
            arm(context)
        }
        context.write(data, promise: promise)
    }

    private func arm(_ context: ChannelHandlerContext) {
        deadline?.cancel()
        let channel = context.channel
        deadline = context.eventLoop.scheduleTask(in: .seconds(connections.limits.requestSeconds)) {
            channel.close(promise: nil)
        }
    }
}
