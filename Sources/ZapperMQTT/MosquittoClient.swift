import CMosquitto
import Foundation
import Synchronization

/// One libmosquitto client: its network runs on a thread of its own (`mosquitto_loop`), which
/// resolves the broker's name, connects, keeps the connection alive, reconnects with a backoff
/// from 1 s doubling to 60 s when it cannot connect or the connection drops, and calls the
/// handlers. (libmosquitto's own `mosquitto_loop_start` thread never came back after a first
/// connection was refused, in 2.0.11: its backoff slept on.) `publish` and `subscribe` only queue
/// a packet and wake that thread (threaded mode): they never wait for the network.
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
    private let stopping = Atomic<Bool>(false)
    private let ended = DispatchSemaphore(value: 0)
    private let started = Atomic<Bool>(false)

    final class Box: Sendable {
        let handlers: Handlers
        /// Set when the broker accepted a connection: the backoff starts again from 1 s.
        let accepted = Atomic<Bool>(false)
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
        try MosquittoError.check("mosquitto_threaded_set", mosquitto_threaded_set(handle, true))
        mosquitto_connect_callback_set(handle) { _, user, code in
            guard let box = user.map({ Unmanaged<Box>.fromOpaque($0).takeUnretainedValue() }) else { return }
            if code == 0 { box.accepted.store(true, ordering: .sequentiallyConsistent) }
            box.handlers.connected(code)
        }
        mosquitto_disconnect_callback_set(handle) { _, user, code in
            user.map { Unmanaged<Box>.fromOpaque($0).takeUnretainedValue() }?.handlers.disconnected(code)
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
        var delay = 1
        var code = mosquitto_connect_async(handle, host, Int32(port), keepalive)
        let call = "\(host):\(port)"
        while !stopping.load(ordering: .sequentiallyConsistent) {
            if code == success {
                code = mosquitto_loop(handle, 500, 1)
                if context.takeUnretainedValue().accepted.exchange(false, ordering: .sequentiallyConsistent) { delay = 1 }
                if code == success { continue }
            }
            failed(MosquittoError(call, code: code), delay)
            // The backoff, cut short by `stop`.
            let until = Date().addingTimeInterval(Double(delay))
            while Date() < until, !stopping.load(ordering: .sequentiallyConsistent) { Thread.sleep(forTimeInterval: 0.1) }
            delay = min(delay * 2, 60)
            code = mosquitto_reconnect_async(handle)
        }
        // Stopping: what was queued goes out (at most 2 s), then DISCONNECT (no last will).
        let deadline = Date().addingTimeInterval(2)
        while code == success, mosquitto_want_write(handle), Date() < deadline { code = mosquitto_loop(handle, 100, 1) }
        if code == success, mosquitto_disconnect(handle) == success {
            var rounds = 0
            while mosquitto_loop(handle, 100, 1) == success, rounds < 10 { rounds += 1 }
        }
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
    }
}

/// The client's handle, handed to its network thread (libmosquitto in threaded mode takes calls from several threads).
private struct UncheckedHandle: @unchecked Sendable {
    let pointer: OpaquePointer
    init(_ pointer: OpaquePointer) { self.pointer = pointer }
}
