import Foundation
import Synchronization
import ZapperCore

/// A box on its fleet's MQTT broker (README: "MQTT and Home Assistant"): it publishes the
/// player's state, availability (with `offline` as its last will), the events worth a
/// fleet's attention and Home Assistant's discovery documents, and hands the commands it
/// receives to the player, publishing each one's reply.
///
/// Three threads meet here, none of them the frame loop's for more than a note: the client's
/// network thread (`MosquittoClient`: connects, reconnects with backoff, reads commands), this
/// link's publishing thread (the only one that publishes, from a bounded `FleetOutbox`), and the
/// player's loop, whose status watcher, event observer and command replies only post to the outbox.
public final class FleetLink: Sendable {
    public struct Hooks: Sendable {
        /// The player's `remoteSink`.
        public var send: @Sendable (RemoteCommand, (@Sendable (RemoteReply) -> Void)?) -> Void
        /// Ends the player's loop so zapper starts itself again (`reload`).
        public var reload: @Sendable () -> Void
        /// PUTs a screenshot's bytes to a URL (over the process's HTTP client).
        public var upload: @Sendable (URL, [UInt8]) async throws -> Void
        public var say: @Sendable (String) -> Void

        public init(send: @escaping @Sendable (RemoteCommand, (@Sendable (RemoteReply) -> Void)?) -> Void,
                    reload: @escaping @Sendable () -> Void, upload: @escaping @Sendable (URL, [UInt8]) async throws -> Void,
                    say: @escaping @Sendable (String) -> Void) {
            self.send = send
            self.reload = reload
            self.upload = upload
            self.say = say
        }
    }

    /// Commands handed to the player and not yet answered, at most: more are refused.
    static let maxWaiting = 16
    /// The largest screenshot sent (a PNG of the screen is a few MB).
    static let maxScreenshot = 16 << 20

    let settings: MQTTSettings
    let topics: MQTTTopics
    private let discovery: [HomeAssistantDiscovery.Document]
    /// Its availability and discovery topics, with what it publishes there.
    private let ownTopics: [String: [UInt8]]
    private let hooks: Hooks
    private let outbox = FleetOutbox()
    private let client = Mutex<MosquittoClient?>(nil)
    private let flags = Flags()
    private let refusalsSaid = Mutex<(minute: Int, count: Int)>((0, 0))
    private let publisherDone = DispatchSemaphore(value: 0)

    /// Sets the client up (credentials, TLS, the last will); `start` connects.
    public init(settings: MQTTSettings, channels: [(number: Int, name: String)], hooks: Hooks) throws(MosquittoError) {
        self.settings = settings
        topics = settings.topics
        self.hooks = hooks
        discovery = settings.discoveryPrefix.map {
            HomeAssistantDiscovery.documents(discoveryPrefix: $0, topics: settings.topics, channels: channels)
        } ?? []
        var own = [settings.topics.availability: Array(MQTTTopics.online.utf8)]
        for document in discovery { own[document.topic] = document.payload }
        ownTopics = own
        let outbox = self.outbox, flags = self.flags, broker = settings.broker
        let made = try MosquittoClient(
            clientID: "zapper-\(settings.boxID)", username: settings.username, password: settings.password,
            will: .init(topic: topics.availability, payload: Array(MQTTTopics.offline.utf8)),
            tls: broker.tls ? .init(caFile: settings.caFile) : nil,
            handlers: .init(connected: { code in
                guard code == 0 else {
                    let words = "\(broker) refused the connection: \(MosquittoLibrary.connackWords(code))"
                    if flags.errorsSaid.withLock({ $0.count < 16 && $0.insert(words).inserted }) { hooks.say("mqtt: \(words)") }
                    return
                }
                flags.connected.store(true, ordering: .sequentiallyConsistent)
                flags.lastFailure.withLock { $0 = nil }
                flags.errorsSaid.withLock { $0.removeAll() }
                outbox.post(.connected)
            }, disconnected: { _ in
                // The network thread says why and when it tries again.
                flags.connected.store(false, ordering: .sequentiallyConsistent)
            }, message: { [weak self] topic, payload, retained in
                self?.received(topic: topic, payload: payload, retained: retained)
            }, error: { line in
                // Each line once until the next connection (a broker that stays unreachable is not a flood).
                guard flags.errorsSaid.withLock({ $0.count < 16 && $0.insert(line).inserted }) else { return }
                hooks.say("mqtt: libmosquitto: \(line)")
            }, protocolFallback: {
                flags.once("v311") {
                    hooks.say("mqtt: \(broker) speaks MQTT 3.1.1 only: a message over \(MosquittoClient.maxPacketBytes >> 10) KB cannot be refused before it arrives")
                }
            }, takenOver: { seconds in
                flags.connected.store(false, ordering: .sequentiallyConsistent)
                flags.once("taken over") {
                    hooks.say("mqtt: \(broker) ended the connection soon after accepting it, as when another client connects as "
                              + "zapper-\(settings.boxID) and takes the session over (two boxes with one box-id?); trying again in "
                              + "\(seconds) s, backing off to 10 minutes")
                }
            }))
        client.withLock { $0 = made }
    }

    /// Connects (on the client's network thread, retrying with backoff) and starts publishing.
    public func start() {
        Thread { [self] in
            publishLoop()
            publisherDone.signal()
        }.start()
        let broker = settings.broker, hooks = self.hooks, flags = self.flags
        guard let client = client.withLock({ $0 }) else { return }
        client.start(host: broker.host, port: broker.port) { error, seconds in
            // Said when it differs from the last failure said (not at every attempt of a long outage).
            guard flags.lastFailure.withLock({ last in defer { last = error.message }; return last != error.message }) else { return }
            hooks.say("mqtt: \(error); trying again in \(seconds) s, then backing off to 60 s")
        }
        hooks.say("mqtt: \(broker) as \(topics.base)")
    }

    /// The player's status changed (from its loop: only a note).
    public func publish(_ status: PlayerStatus) {
        outbox.post(state: FleetPayloads.state(status))
    }

    /// An event was logged (on the emitting thread: only a note).
    public func publish(_ name: EventName, _ event: Event) {
        guard FleetPayloads.isWorthPublishing(name) else { return }
        outbox.post(.message(topic: topics.event, payload: FleetPayloads.event(event), retain: false))
    }

    /// Says `offline` (retained), sends what waits, disconnects: at a clean exit and before a reload.
    public func stop() {
        outbox.stop(last: .message(topic: topics.availability, payload: Array(MQTTTopics.offline.utf8), retain: true))
        _ = publisherDone.wait(timeout: .now() + 3)
        client.withLock { $0 }?.stop()
    }

    /// A message on `command/+`, or on a topic of its own that it watches (on the client's network thread).
    private func received(topic: String, payload: [UInt8], retained: Bool) {
        if let ours = ownTopics[topic] { return overwritten(topic, payload, ours: ours, retained: retained) }
        guard let verb = topics.verb(of: topic) else { return }
        guard !payload.isEmpty else {
            // How a retained message is cleared: an empty one, which must not be a reload.
            return flags.once("empty \(verb)") {
                hooks.say("mqtt: an empty message on command/\(FleetPayloads.shown(verb, limit: 64)) does nothing (a retained command cleared?)")
            }
        }
        if retained {
            // A retained command would be carried out again at every connect (a reload, forever).
            return refuse(verb, payload, "a retained command is not carried out (publish commands without retain)")
        }
        switch FleetCommand.parse(verb: verb, payload: payload) {
        case .failure(let refusal):
            refuse(verb, payload, refusal.description)
        case .success(.reload):
            hooks.say("mqtt: reload asked for")
            answer(verb, payload, refusal: nil)
            outbox.post(.reload)
        case .success(.remote(let command)):
            send(command, verb, payload) { [self] reply in
                switch reply {
                case .done: answer(verb, payload, refusal: nil)
                case .refused(let why): refuse(verb, payload, why)
                }
            }
        case .success(.screenshot(let upload)):
            guard !flags.screenshotBusy.exchange(true, ordering: .sequentiallyConsistent) else {
                return refuse(verb, payload, "a screenshot is already under way")
            }
            let path = FileManager.default.temporaryDirectory
                .appendingPathComponent("zapper-mqtt-screenshot-\(getpid()).png").path
            send(.screenshot(path: path), verb, payload) { [self] reply in
                switch reply {
                case .done:
                    if !outbox.post(.screenshot(path: path, upload: upload, payload: payload)) {
                        flags.screenshotBusy.store(false, ordering: .sequentiallyConsistent)
                        try? FileManager.default.removeItem(atPath: path)
                    }
                case .refused(let why):
                    flags.screenshotBusy.store(false, ordering: .sequentiallyConsistent)
                    refuse(verb, payload, why)
                }
            }
        }
    }

    /// Someone else wrote on its availability or a discovery topic (`offline`, a forged document,
    /// a cleared one): what it says is put back, at most once in 10 s a topic, said once.
    /// Retained ones (there before it connected) are replaced at connect anyway.
    private func overwritten(_ topic: String, _ payload: [UInt8], ours: [UInt8], retained: Bool) {
        guard !retained, payload != ours, flags.connected.load(ordering: .sequentiallyConsistent) else { return }
        let now = Date().timeIntervalSince1970
        guard flags.corrected.withLock({ times in
            guard now - (times[topic] ?? 0) >= 10 else { return false }
            times[topic] = now
            return true
        }) else { return }
        flags.once("overwritten") { hooks.say("mqtt: another client wrote \(topic); zapper's own is published again") }
        outbox.post(.message(topic: topic, payload: ours, retain: true))
    }

    /// Hands a command to the player unless too many wait already.
    private func send(_ command: RemoteCommand, _ verb: String, _ payload: [UInt8],
                      then: @escaping @Sendable (RemoteReply) -> Void) {
        guard flags.waiting.add(1, ordering: .sequentiallyConsistent).newValue <= Self.maxWaiting else {
            flags.waiting.subtract(1, ordering: .sequentiallyConsistent)
            if case .screenshot = command { flags.screenshotBusy.store(false, ordering: .sequentiallyConsistent) }
            return refuse(verb, payload, "busy: \(Self.maxWaiting) commands wait for the player already")
        }
        let flags = self.flags
        hooks.send(command) { reply in
            flags.waiting.subtract(1, ordering: .sequentiallyConsistent)
            then(reply)
        }
    }

    private func answer(_ verb: String, _ payload: [UInt8], refusal: String?) {
        outbox.post(.message(topic: topics.reply, payload: FleetPayloads.reply(verb: verb, payload: payload, refusal: refusal),
                             retain: false))
    }

    /// Answers `refused` and says why (at most 20 lines a minute: a flood of bad commands is counted, not logged).
    private func refuse(_ verb: String, _ payload: [UInt8], _ why: String) {
        answer(verb, payload, refusal: why)
        let minute = Int(Date().timeIntervalSince1970 / 60)
        let say = refusalsSaid.withLock { said -> Bool in
            if said.minute != minute { said = (minute, 0) }
            said.count += 1
            return said.count <= 20
        }
        if say { hooks.say("mqtt: command/\(FleetPayloads.shown(verb, limit: 64)) refused: \(why)") }
    }

    /// The publishing thread: everything sent to the broker goes out from here, in order.
    private func publishLoop() {
        var state: [UInt8]?
        while let (items, newState) = outbox.take() {
            for item in items { publish(item, state: state) }
            if let newState {
                state = newState
                if flags.connected.load(ordering: .sequentiallyConsistent) { send(topics.state, newState, retain: true) }
            }
        }
    }

    private func publish(_ item: FleetOutbox.Item, state: [UInt8]?) {
        switch item {
        case .connected:
            guard let client = client.withLock({ $0 }) else { return }
            do {
                try client.subscribe(topics.commands)
                // Its own topics, watched for what others write there (not its own echo).
                for topic in ownTopics.keys.sorted() { try client.subscribe(topic, ownEcho: false) }
            } catch {
                hooks.say("mqtt: \(error)")
            }
            send(topics.availability, Array(MQTTTopics.online.utf8), qos: 1, retain: true)
            for document in discovery { send(document.topic, document.payload, retain: true) }
            if let state { send(topics.state, state, retain: true) }
            hooks.say("mqtt: connected to \(settings.broker)")
        case let .message(topic, payload, retain):
            send(topic, payload, qos: topic == topics.availability ? 1 : 0, retain: retain)
        case let .screenshot(path, upload, payload):
            shipScreenshot(path: path, upload: upload, payload: payload)
        case .reload:
            hooks.reload()
        }
    }

    /// Reads the screenshot's file and publishes it, or PUTs it (the reply follows the upload).
    private func shipScreenshot(path: String, upload: URL?, payload: [UInt8]) {
        let bytes = FileManager.default.contents(atPath: path).map { [UInt8]($0) }
        try? FileManager.default.removeItem(atPath: path)
        guard let bytes, bytes.count <= Self.maxScreenshot else {
            flags.screenshotBusy.store(false, ordering: .sequentiallyConsistent)
            return refuse("screenshot", payload, bytes == nil ? "the screenshot could not be read back"
                          : "the screenshot is over \(Self.maxScreenshot >> 20) MB")
        }
        guard let upload else {
            send(topics.screenshot, bytes, retain: false)
            flags.screenshotBusy.store(false, ordering: .sequentiallyConsistent)
            return answer("screenshot", payload, refusal: nil)
        }
        let hooks = self.hooks
        Task.detached { [self] in
            var failure: String?
            do {
                try await hooks.upload(upload, bytes)
            } catch {
                failure = "PUT \(FleetPayloads.shown(upload.absoluteString, limit: 80)): \(error)"
            }
            // Free before the answer: whoever sees it may ask for the next one at once.
            flags.screenshotBusy.store(false, ordering: .sequentiallyConsistent)
            if let failure { refuse("screenshot", payload, failure) } else { answer("screenshot", payload, refusal: nil) }
        }
    }

    /// Publishes when connected; a failure is dropped (what is retained is sent again at the next connect).
    private func send(_ topic: String, _ payload: [UInt8], qos: Int32 = 0, retain: Bool) {
        guard flags.connected.load(ordering: .sequentiallyConsistent), let client = client.withLock({ $0 }) else { return }
        do {
            try client.publish(topic, payload, qos: qos, retain: retain)
        } catch {
            hooks.say("mqtt: \(error)")
        }
    }
}

/// What the link's threads share: connected or not, commands waiting, a screenshot under way.
private final class Flags: Sendable {
    let connected = Atomic<Bool>(false)
    let waiting = Atomic<Int>(0)
    let screenshotBusy = Atomic<Bool>(false)
    /// The last connection failure said (nil once connected).
    let lastFailure = Mutex<String?>(nil)
    let errorsSaid = Mutex<Set<String>>([])
    /// When each of its own topics was last put right.
    let corrected = Mutex<[String: Double]>([:])
    private let said = Mutex<Set<String>>([])

    /// Runs `say` the first time `what` happens in this run only (at most 64 kinds).
    func once(_ what: String, _ say: () -> Void) {
        if said.withLock({ $0.count < 64 && $0.insert(what).inserted }) { say() }
    }
}
