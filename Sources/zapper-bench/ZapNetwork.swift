import Foundation

/// Where `zapper-bench zap` reaches the origin: straight on loopback, or behind a shaped
/// link (`--network`), or — where namespaces cannot be made (not root, a sandbox) — with
/// the origin's own per-request delay and bandwidth faults standing in, and saying so.
struct ZapNetwork {
    let origin: OriginServer
    /// What zapper and mpv fetch from (the relay's address when the round trip comes from one).
    let baseURL: String
    let mechanism: String
    private let link: ShapedLink?
    private let relay: DelayRelay?

    init(profile: NetworkProfile?, tools: Tools, channels: String, directory: URL) throws {
        let binary = try tools.product("zapper-origin")
        guard let profile else {
            origin = try OriginServer(binary: binary, channels: channels, directory: directory)
            (baseURL, mechanism, link, relay) = (origin.baseURL, "loopback, no shaping", nil, nil)
            return
        }
        var shaped: ShapedLink?
        do {
            shaped = try ShapedLink(profile: profile)
        } catch {
            Progress.say("no shaped link (\(error)); the origin's per-request delay and bandwidth faults stand in")
            let numbers = try Self.channelNumbers(channels)
            let faults = numbers.flatMap { ["--fault", "\($0):delay=\(profile.rtt),bandwidth=\(profile.megabits * 125_000)"] }
            origin = try OriginServer(binary: binary, channels: channels, directory: directory, extra: faults)
            (baseURL, link, relay) = (origin.baseURL, nil, nil)
            mechanism = "FALLBACK: no namespace here (\(error)); the origin delays each answer one round trip and sends at the "
                + "profile's rate (per response, not per link); no loss"
            return
        }
        guard let shaped else { throw BenchError("no link") }
        do {
            origin = try OriginServer(binary: binary, channels: channels, directory: directory,
                                      extra: ["--bind", shaped.originAddress], launcher: shaped.launcher)
        } catch {
            shaped.tearDown()
            throw error
        }
        link = shaped
        mechanism = shaped.mechanism
        if shaped.needsRelay {
            let relay: DelayRelay
            do {
                relay = try DelayRelay(target: shaped.originAddress, port: origin.port, roundTripMilliseconds: profile.rtt)
            } catch {
                origin.stop()
                shaped.tearDown()
                throw error
            }
            baseURL = "http://127.0.0.1:\(relay.port)"
            self.relay = relay
        } else {
            baseURL = origin.baseURL
            relay = nil
        }
    }

    func stop() {
        origin.stop()
        relay?.stop()
        link?.tearDown()
    }

    private static func channelNumbers(_ catalog: String) throws -> [Int] {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: catalog))) as? [String: Any]
        return (object?["channels"] as? [[String: Any]] ?? []).compactMap { $0["number"] as? Int }
    }

    /// The number-entry goal at the profile: 2.5 round trips and one segment of the lowest
    /// variant's transfer (its size read from the origin), in milliseconds.
    static func numberGoal(profile: NetworkProfile, master: String) -> (milliseconds: Int, segmentBytes: Int)? {
        guard let lowest = (try? HTTP.variants(master: master))?.min(by: { $0.bandwidth < $1.bandwidth }),
              let segment = (try? HTTP.segments(media: lowest.url))?.last,
              let bytes = try? HTTP.data(segment.url).count else { return nil }
        let transfer = Double(bytes * 8) / Double(profile.megabits * 1_000_000) * 1000
        return (Int((2.5 * Double(profile.rtt) + transfer).rounded()), bytes)
    }
}
