import Foundation
import Synchronization
import ZapperCore

/// The box's HTTP API beside `/metrics`, there only when a token is configured: `GET /status`
/// (the state JSON the MQTT `state` topic carries), `POST /command/<verb>` with the same verbs
/// and payloads as MQTT (`tune`, `next`, `previous`, `key`, `volume`, `mute`, `reload`; the body
/// is the payload), `GET /screenshot.png` and `GET /channels` (the list, JSON). Every request
/// needs the bearer token (`APIGate`), but for `GET /remote`, the phone's remote-control page
/// (`RemotePage`), which holds nothing secret and calls the others with the token.
public enum RemoteAPI {
    /// What the routes reach of the player (closures, so this module needs no player).
    public struct Hooks: Sendable {
        public var send: @Sendable (RemoteCommand, (@Sendable (RemoteReply) -> Void)?) -> Void
        public var status: @Sendable () -> PlayerStatus?
        public var reload: @Sendable () -> Void
        public var say: @Sendable (String) -> Void
        /// The channels a viewer may pick (the panel's list).
        public var channels: [LineupChannel]

        public init(send: @escaping @Sendable (RemoteCommand, (@Sendable (RemoteReply) -> Void)?) -> Void,
                    status: @escaping @Sendable () -> PlayerStatus?, reload: @escaping @Sendable () -> Void,
                    say: @escaping @Sendable (String) -> Void, channels: [LineupChannel] = []) {
            self.send = send
            self.status = status
            self.reload = reload
            self.say = say
            self.channels = channels
        }
    }

    public static func add(to routes: inout FleetRoutes, token: String, hooks: Hooks,
                           now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }) {
        let gate = Mutex(APIGate(token: token))
        func guarded(_ handler: @escaping FleetRoutes.Handler) -> FleetRoutes.Handler {
            { request, answer in
                switch gate.withLock({ $0.check(authorization: request.headers["authorization"], client: request.client, now: now()) }) {
                case .allowed:
                    handler(request, answer)
                case .unauthorized(let say):
                    if say { hooks.say("api: \(request.method) \(request.path) from \(request.client) refused: no or a wrong bearer token") }
                    answer(FleetReply(status: 401, text: "a bearer token is needed (Authorization: Bearer …)"))
                case .tooMany(let seconds):
                    answer(FleetReply(status: 429, text: "too many requests; try again in \(seconds) s"))
                }
            }
        }
        routes.add("GET", "/status", guarded { _, answer in
            guard let status = hooks.status() else { return answer(FleetReply(status: 503, text: "not playing yet")) }
            answer(FleetReply(status: 200, contentType: "application/json", body: FleetPayloads.state(status)))
        })
        for verb in FleetCommand.verbs where verb != "screenshot" {
            routes.add("POST", "/command/\(verb)", guarded { request, answer in
                switch FleetCommand.parse(verb: verb, payload: request.body) {
                case .failure(let refusal):
                    answer(json(400, verb: verb, request.body, refusal: refusal.description))
                case .success(.reload):
                    answer(json(202, verb: verb, request.body, refusal: nil))
                    hooks.reload()
                case .success(.remote(let command)):
                    hooks.send(command) { reply in
                        if case .refused(let reason) = reply { answer(json(409, verb: verb, request.body, refusal: reason)) }
                        else { answer(json(200, verb: verb, request.body, refusal: nil)) }
                    }
                case .success(.screenshot):
                    answer(json(400, verb: verb, request.body, refusal: "GET /screenshot.png"))
                }
            })
        }
        let page = Array(RemotePage.html.utf8), policy = RemotePage.securityPolicy(logos: hooks.channels.compactMap(\.logo))
        routes.add("GET", "/remote") { _, answer in
            answer(FleetReply(status: 200, contentType: "text/html; charset=utf-8", body: page, securityPolicy: policy))
        }
        let channelList = (try? JSONEncoder().encode(hooks.channels.map(RemotePage.Channel.init))).map { Array($0) } ?? Array("[]".utf8)
        routes.add("GET", "/channels", guarded { _, answer in
            answer(FleetReply(status: 200, contentType: "application/json", body: channelList))
        })
        routes.add("GET", "/screenshot.png", guarded { _, answer in
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("zapper-api-\(UUID().uuidString).png").path
            hooks.send(.screenshot(path: path)) { reply in
                defer { try? FileManager.default.removeItem(atPath: path) }
                guard reply == .done, let bytes = FileManager.default.contents(atPath: path) else {
                    return answer(FleetReply(status: 500, text: "no screenshot: \(reply)"))
                }
                answer(FleetReply(status: 200, contentType: "image/png", body: Array(bytes)))
            }
        })
    }

    static func json(_ status: Int, verb: String, _ payload: [UInt8], refusal: String?) -> FleetReply {
        FleetReply(status: status, contentType: "application/json", body: FleetPayloads.reply(verb: verb, payload: payload, refusal: refusal))
    }
}
