import CMosquitto
import Foundation
import Synchronization

/// One libmosquitto client: its network runs on a thread of its own (`turn`, a poll(2) loop), which
/// resolves the broker's name, connects, keeps the connection alive, reconnects with a backoff
/// from 1 s doubling to 60 s when it cannot connect or the connection drops, and calls the
/// handlers. (libmosquitto's own `mosquitto_loop_start` thread never came back after a first
/// connection was refused, in 2.0.11: its backoff slept on.) `publish` and `subscribe` only queue
/// a packet and wake that thread (threaded mode): they never wait for the network.
///
/// It speaks MQTT v5 and says in CONNECT the largest packet it takes (`maxPacketBytes`): the
/// broker drops a larger message for it, so a 268 MB one never reaches this process. A broker
/// that speaks only 3.1.1 is spoken to in 3.1.1, said once it accepts (`Handlers.protocolFallback`):
/// one that refuses v5 ("unacceptable protocol version"), and one that ends or leaves unanswered a v5
/// CONNECT before it ever accepted one (the versions then take turns until one is accepted).
/// Another client taking the session over (the same client id) is not fought: a DISCONNECT
/// saying so (`MQTT_RC_SESSION_TAKEN_OVER`), or two connections in a row that the broker ended
/// within `shortLived` of accepting them (Mosquitto 2.0 just closes the older one), make the
/// next try wait 60 s, doubling to 10 minutes (`Handlers.takenOver`).
final class MosquittoClient: @unchecked Sendable {
    struct Handlers: Sendable {
        /// The broker's CONNACK: 0 (accepted) or its refusal code.
        var connected: @Sendable (Int32) -> Void
        /// The connection ended: 0 when asked for (`stop`), else the reason's code.
        var disconnected: @Sendable (Int32) -> Void
        /// A message on a subscribed topic; `retained`: the broker kept it from before.
        var message: @Sendable (_ topic: String, _ payload: [UInt8], _ retained: Bool) -> Void
        /// libmosquitto's own error lines (what a TLS error was: "certificate verify failed").
        var error: @Sendable (String) -> Void
        /// The broker speaks MQTT 3.1.1 only: from now on this client does too.
        var protocolFallback: @Sendable () -> Void = {}
        /// Another client took the session over; the next try is in this many seconds.
        var takenOver: @Sendable (Int) -> Void = { _ in }
    }

    /// The largest packet the broker may send (a command's 4 KB and its topic, with room).
    static let maxPacketBytes: UInt32 = 16 * 1024
    /// A CONNECT unanswered this long is given up on (and the other version tried, until one is accepted).
    static let connackSeconds: TimeInterval = 10
    /// Codes of a connection that ended before its CONNACK: lost, a protocol error, silence.
    static let unansweredCodes: Set<Int32> = [MOSQ_ERR_CONN_LOST, MOSQ_ERR_PROTOCOL, MOSQ_ERR_MALFORMED_PACKET, MOSQ_ERR_KEEPALIVE]
        .map { Int32($0.rawValue) }.reduce(into: []) { $0.insert($1) }
    /// A connection the broker ends sooner than this after accepting it was likely taken over.
    static let shortLived: TimeInterval = 30

    struct Will {
        var topic: String
        var payload: [UInt8]
    }

    struct TLS {
        /// A PEM file of authorities trusted besides the system's.
        var caFile: String?
    }

    private let handle: OpaquePointer
    /// Written when a packet is queued, to end the network thread's wait (`turn`).
    let wake: Wake? = MosquittoClient.makeWake()
    /// Retained until deinit: libmosquitto holds its address as the callbacks' user data.
    private let context: Unmanaged<Box>
    private let stopping = Atomic<Bool>(false)
    private let ended = DispatchSemaphore(value: 0)
    private let started = Atomic<Bool>(false)

    final class Box: Sendable {
        let handlers: Handlers
        /// Set when the broker accepted a connection: the backoff starts again from 1 s.
        let accepted = Atomic<Bool>(false)
        /// Set by a DISCONNECT saying another client took the session over.
        let takenOver = Atomic<Bool>(false)
        /// Set by a CONNACK saying the broker does not speak v5.
        let wantsV311 = Atomic<Bool>(false)
        /// Spoken to in 3.1.1 since.
        let speaksV311 = Atomic<Bool>(false)
        init(_ handlers: Handlers) { self.handlers = handlers }
    }

    init(clientID: String, username: String?, password: String?, will: Will, tls: TLS?, handlers: Handlers) throws(MosquittoError) {
        guard MosquittoLibrary.initialised else { throw MosquittoError("mosquitto_lib_init", code: Int32(MOSQ_ERR_UNKNOWN.rawValue)) }
        let context = Unmanaged.passRetained(Box(handlers))
        guard let handle = mosquitto_new(clientID, true, context.toOpaque()) else {
            context.release()
            throw MosquittoError("mosquitto_new", code: Int32(MOSQ_ERR_ERRNO.rawValue))
        }
        self.handle = handle
        self.context = context
        // From here deinit frees both, whatever fails below.
        try MosquittoError.check("mosquitto_int_option(protocol 5)", mosquitto_int_option(handle, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V5))
        try MosquittoError.check("mosquitto_will_set", will.payload.withUnsafeBytes { bytes in
            mosquitto_will_set(handle, will.topic, Int32(bytes.count), bytes.baseAddress, 1, true)
        })
        if let username {
            try MosquittoError.check("mosquitto_username_pw_set", mosquitto_username_pw_set(handle, username, password))
        }
        if let tls {
            try MosquittoError.check("mosquitto_int_option(use the system's certificates)",
                                     mosquitto_int_option(handle, MOSQ_OPT_TLS_USE_OS_CERTS, 1))
            if let caFile = tls.caFile {
                try MosquittoError.check("mosquitto_tls_set(\(caFile))", mosquitto_tls_set(handle, caFile, nil, nil, nil, nil))
            }
        }
        try MosquittoError.check("mosquitto_threaded_set", mosquitto_threaded_set(handle, true))
        mosquitto_connect_callback_set(handle) { _, user, code in
            guard let box = user.map({ Unmanaged<Box>.fromOpaque($0).takeUnretainedValue() }) else { return }
            if code == 0 { box.accepted.store(true, ordering: .sequentiallyConsistent) }
            if code == Int32(MQTT_RC_UNSUPPORTED_PROTOCOL_VERSION.rawValue) {
                // A 3.1.1 broker's "unacceptable protocol version": the next try speaks 3.1.1.
                box.wantsV311.store(true, ordering: .sequentiallyConsistent)
                return
            }
            box.handlers.connected(code)
        }
        mosquitto_disconnect_callback_set(handle) { _, user, code in
            guard let box = user.map({ Unmanaged<Box>.fromOpaque($0).takeUnretainedValue() }) else { return }
            if code == Int32(MQTT_RC_SESSION_TAKEN_OVER.rawValue) { box.takenOver.store(true, ordering: .sequentiallyConsistent) }
            box.handlers.disconnected(code)
        }
        mosquitto_log_callback_set(handle) { _, user, level, text in
            guard let user, let text, level == MOSQ_LOG_ERR else { return }
            Unmanaged<Box>.fromOpaque(user).takeUnretainedValue().handlers.error(String(cString: text))
        }
        mosquitto_message_callback_set(handle) { _, user, message in
            guard let user, let message = message?.pointee, let topic = message.topic else { return }
            let count = Int(max(0, message.payloadlen))
            let payload = message.payload.map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
            Unmanaged<Box>.fromOpaque(user).takeUnretainedValue().handlers.message(String(cString: topic), payload, message.retain)
        }
    }

    /// Starts the network thread, which makes the first connection attempt; `failed` is told
    /// each attempt that fails, and the seconds until the next.
    func start(host: String, port: Int, keepaliveSeconds: Int32 = 30,
               failed: @escaping @Sendable (MosquittoError, Int) -> Void) {
        guard !started.exchange(true, ordering: .sequentiallyConsistent) else { return }
        let handle = UncheckedHandle(handle)
        Thread { [self] in
            run(handle.pointer, host: host, port: port, keepalive: keepaliveSeconds, failed: failed)
            ended.signal()
        }.start()
    }

    private func run(_ handle: OpaquePointer, host: String, port: Int, keepalive: Int32,
                     failed: @Sendable (MosquittoError, Int) -> Void) {
        let success = Int32(MOSQ_ERR_SUCCESS.rawValue)
        let box = context.takeUnretainedValue()
        var delay = 1
        var takeoverDelay = 60
        var acceptedAt: Date?
        var shortLivedInARow = 0
        var code = connect(handle, host: host, port: port, keepalive: keepalive, v311: false)
        // The version the next try speaks, when it is to change.
        var nextVersion: Bool?
        let call = "\(host):\(port)"
        // Until a broker first accepts: when the attempt began (nil: no attempt under way).
        var connectingSince: Date? = code == success ? Date() : nil
        var everAccepted = false
        while !stopping.load(ordering: .sequentiallyConsistent) {
            if code == success {
                code = turn(handle, milliseconds: 500)
                if box.accepted.exchange(false, ordering: .sequentiallyConsistent) {
                    delay = 1
                    acceptedAt = Date()
                    connectingSince = nil
                    if !everAccepted, box.speaksV311.load(ordering: .sequentiallyConsistent) { box.handlers.protocolFallback() }
                    everAccepted = true
                }
                if code == success, let since = connectingSince, Date().timeIntervalSince(since) > Self.connackSeconds {
                    // No CONNACK at all: a broker that cannot read this version's CONNECT (amqtt, which
                    // speaks 3.1.1, waits for ever on a v5 CONNECT that carries a will) is given up on.
                    mosquitto_disconnect(handle)
                    code = Int32(MOSQ_ERR_KEEPALIVE.rawValue)
                }
                if code == success { continue }
            }
            if let since = acceptedAt {
                shortLivedInARow = Date().timeIntervalSince(since) < Self.shortLived ? shortLivedInARow + 1 : 0
                acceptedAt = nil
            }
            let unanswered = connectingSince != nil && Self.unansweredCodes.contains(code)
            connectingSince = nil
            if box.wantsV311.exchange(false, ordering: .sequentiallyConsistent) {
                // A 3.1.1 broker's "unacceptable protocol version": 3.1.1 at once.
                code = connect(handle, host: host, port: port, keepalive: keepalive, v311: true)
                if code == success { connectingSince = Date() }
                continue
            }
            if !everAccepted, unanswered {
                // A connection that ended, or stayed silent, before any CONNACK: the next try speaks
                // the other version, until a broker accepts one (which then stays).
                nextVersion = !box.speaksV311.load(ordering: .sequentiallyConsistent)
            }
            if box.takenOver.exchange(false, ordering: .sequentiallyConsistent) || shortLivedInARow >= 2 {
                shortLivedInARow = 0
                // Not fought over: two boxes given one id would kick each other every second.
                delay = max(delay, takeoverDelay)
                box.handlers.takenOver(delay)
                takeoverDelay = min(takeoverDelay * 2, 600)
            } else {
                failed(MosquittoError(call, code: code), delay)
            }
            // The backoff, cut short by `stop`.
            let until = Date().addingTimeInterval(Double(delay))
            while Date() < until, !stopping.load(ordering: .sequentiallyConsistent) { Thread.sleep(forTimeInterval: 0.1) }
            delay = min(delay * 2, max(60, delay))
            code = nextVersion.map { connect(handle, host: host, port: port, keepalive: keepalive, v311: $0) } ?? mosquitto_reconnect_async(handle)
            nextVersion = nil
            if code == success { connectingSince = Date() }
        }
        // Stopping: what was queued goes out (at most 2 s), then DISCONNECT (no last will).
        let deadline = Date().addingTimeInterval(2)
        while code == success, mosquitto_want_write(handle), Date() < deadline { code = turn(handle, milliseconds: 100) }
        if code == success, mosquitto_disconnect(handle) == success {
            var rounds = 0
            while turn(handle, milliseconds: 100) == success, rounds < 10 { rounds += 1 }
        }
    }

    /// Connects in v5 with CONNECT's properties, or in 3.1.1 without (libmosquitto keeps the
    /// properties for every reconnection, and refuses to reconnect in 3.1.1 while it has them);
    /// waits for the TCP connection, on the network thread.
    private func connect(_ handle: OpaquePointer, host: String, port: Int, keepalive: Int32, v311: Bool) -> Int32 {
        mosquitto_int_option(handle, MOSQ_OPT_PROTOCOL_VERSION, v311 ? MQTT_PROTOCOL_V311 : MQTT_PROTOCOL_V5)
        context.takeUnretainedValue().speaksV311.store(v311, ordering: .sequentiallyConsistent)
        var properties: OpaquePointer?
        defer { mosquitto_property_free_all(&properties) }
        if !v311 { mosquitto_property_add_int32(&properties, Int32(MQTT_PROP_MAXIMUM_PACKET_SIZE.rawValue), Self.maxPacketBytes) }
        return mosquitto_connect_bind_v5(handle, host, Int32(port), keepalive, nil, properties)
    }

    /// Queues one message (QoS 0, or 1 for what must arrive: availability).
    func publish(_ topic: String, _ payload: [UInt8], qos: Int32 = 0, retain: Bool = false) throws(MosquittoError) {
        let code = payload.withUnsafeBytes { bytes in
            mosquitto_publish(handle, nil, topic, Int32(bytes.count), bytes.baseAddress, qos, retain)
        }
        try MosquittoError.check("mosquitto_publish(\(topic))", code)
        wakeLoop()
    }

    /// `ownEcho`: this client's own messages on it are sent back too (v5's no-local off).
    func subscribe(_ pattern: String, ownEcho: Bool = true) throws(MosquittoError) {
        // A 3.1.1 session has no options (libmosquitto would send them in the QoS byte).
        let options = ownEcho || context.takeUnretainedValue().speaksV311.load(ordering: .sequentiallyConsistent)
            ? 0 : Int32(MQTT_SUB_OPT_NO_LOCAL.rawValue)
        try MosquittoError.check("mosquitto_subscribe(\(pattern))", mosquitto_subscribe_v5(handle, nil, pattern, 0, options, nil))
        wakeLoop()
    }

    /// Sends what was queued, disconnects (no last will: the caller published `offline` itself)
    /// and ends the network thread (waiting at most 3 s).
    func stop() {
        guard started.load(ordering: .sequentiallyConsistent), !stopping.exchange(true, ordering: .sequentiallyConsistent) else { return }
        _ = ended.wait(timeout: .now() + 3)
    }

    deinit {
        // The thread holds `self` while it runs: it has ended (or never started) by now.
        mosquitto_destroy(handle)
        context.release()
        if let wake { close(wake.read); close(wake.write) }
    }
}

/// The client's handle, handed to its network thread (libmosquitto in threaded mode takes calls from several threads).
private struct UncheckedHandle: @unchecked Sendable {
    let pointer: OpaquePointer
    init(_ pointer: OpaquePointer) { self.pointer = pointer }
}
