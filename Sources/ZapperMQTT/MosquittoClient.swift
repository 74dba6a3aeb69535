import CMosquitto
import Foundation
import Synchronization

/// One libmosquitto client: its network runs on libmosquitto's own thread
/// (`mosquitto_loop_start`), which connects, keeps the connection alive, reconnects with
/// exponential backoff when it drops, and calls the handlers. `publish` and `subscribe`
/// only queue a packet for that thread: they never wait for the network.
final class MosquittoClient: @unchecked Sendable {
    struct Handlers: Sendable {
        /// The broker's CONNACK: 0 (accepted) or its refusal code.
        var connected: @Sendable (Int32) -> Void
        /// The connection ended: 0 when asked for (`stop`), else the reason's code.
        var disconnected: @Sendable (Int32) -> Void
        /// A message on a subscribed topic; `retained`: the broker kept it from before.
        var message: @Sendable (_ topic: String, _ payload: [UInt8], _ retained: Bool) -> Void
    }

    struct Will {
        var topic: String
        var payload: [UInt8]
    }

    struct TLS {
        /// A PEM file of authorities trusted besides the system's.
        var caFile: String?
    }

    private let handle: OpaquePointer
    /// Retained until deinit: libmosquitto holds its address as the callbacks' user data.
    private let context: Unmanaged<Box>
    private let running = Mutex(false)

    final class Box: Sendable {
        let handlers: Handlers
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
        try MosquittoError.check("mosquitto_int_option(protocol 3.1.1)",
                                 mosquitto_int_option(handle, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V311))
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
        try MosquittoError.check("mosquitto_reconnect_delay_set", mosquitto_reconnect_delay_set(handle, 1, 60, true))
        mosquitto_connect_callback_set(handle) { _, user, code in
            user.map { Unmanaged<Box>.fromOpaque($0).takeUnretainedValue() }?.handlers.connected(code)
        }
        mosquitto_disconnect_callback_set(handle) { _, user, code in
            user.map { Unmanaged<Box>.fromOpaque($0).takeUnretainedValue() }?.handlers.disconnected(code)
        }
        mosquitto_message_callback_set(handle) { _, user, message in
            guard let user, let message = message?.pointee, let topic = message.topic else { return }
            let count = Int(max(0, message.payloadlen))
            let payload = message.payload.map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
            Unmanaged<Box>.fromOpaque(user).takeUnretainedValue().handlers.message(String(cString: topic), payload, message.retain)
        }
    }

    /// Starts the network thread and the first connection attempt. A first attempt that fails
    /// at once (no route, refused) is returned, but the thread goes on trying with backoff.
    func start(host: String, port: Int, keepaliveSeconds: Int32 = 30) throws(MosquittoError) -> MosquittoError? {
        let first = mosquitto_connect_async(handle, host, Int32(port), keepaliveSeconds)
        if first == Int32(MOSQ_ERR_INVAL.rawValue) { throw MosquittoError("mosquitto_connect_async(\(host):\(port))", code: first) }
        try MosquittoError.check("mosquitto_loop_start", mosquitto_loop_start(handle))
        running.withLock { $0 = true }
        return first == Int32(MOSQ_ERR_SUCCESS.rawValue) ? nil : MosquittoError("connect to \(host):\(port)", code: first)
    }

    /// Queues one message (QoS 0, or 1 for what must arrive: availability).
    func publish(_ topic: String, _ payload: [UInt8], qos: Int32 = 0, retain: Bool = false) throws(MosquittoError) {
        let code = payload.withUnsafeBytes { bytes in
            mosquitto_publish(handle, nil, topic, Int32(bytes.count), bytes.baseAddress, qos, retain)
        }
        try MosquittoError.check("mosquitto_publish(\(topic))", code)
    }

    func subscribe(_ pattern: String) throws(MosquittoError) {
        try MosquittoError.check("mosquitto_subscribe(\(pattern))", mosquitto_subscribe(handle, nil, pattern, 0))
    }

    /// Disconnects (no last will: the caller published `offline` itself) and ends the
    /// network thread once what was queued is sent (at most `seconds`).
    func stop(seconds: Double = 2) {
        guard running.withLock({ was in defer { was = false }; return was }) else { return }
        let deadline = Date().addingTimeInterval(seconds)
        while mosquitto_want_write(handle), Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        // Not connected: the thread may be sleeping out a backoff; it is cancelled instead.
        let connected = mosquitto_disconnect(handle) == Int32(MOSQ_ERR_SUCCESS.rawValue)
        mosquitto_loop_stop(handle, !connected)
    }

    deinit {
        if running.withLock({ $0 }) { mosquitto_loop_stop(handle, true) }
        mosquitto_destroy(handle)
        context.release()
    }
}
