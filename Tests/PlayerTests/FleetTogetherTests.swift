import Foundation
import Testing
import TestSupport
import ZapperCore

/// A fleet's tools together on one box: a real Mosquitto broker and a real Prometheus server
/// (Debian's), zapper on the demo origin with `[mqtt]`, `[metrics]` and `[api]`. It is tuned
/// over MQTT and then over HTTP, and Prometheus, scraping it, reads back the three zaps and
/// the channel on screen.
extension ZapperPlaybackTests {
    @Test func mqttAndHTTPTuneTheBoxAndPrometheusSeesItsZapsAndChannel() async throws {
        let broker = try await MosquittoBroker.start()
        let topics = MQTTTopics(prefix: "zapper", boxID: "fleet-box")
        let token = "fleet-box-token-51c2"
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("zapper-fleet-\(UUID().uuidString).toml")
        try """
            [mqtt]
            broker = "mqtt://127.0.0.1:\(broker.port)"
            box-id = "fleet-box"

            [metrics]
            listen = "127.0.0.1:0"

            [api]
            token = "\(token)"
            """.write(to: config, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: config) }
        let zapper = try await LaunchedZapper(lineup: try demoLineup(), arguments: ["--config", config.path, "--size", "320x180"],
                                        script: "wait-event first-frame 20000\nwait 120000\nquit\n")
        let port = try #require(await metricsPort(of: zapper), "\(zapper.stderrSoFar)")
        let prometheus = try PrometheusServer(scraping: port)
        defer { prometheus.stop() }
        #expect(await zapper.waitFor(.firstFrame, seconds: 40), "\(zapper.stderrSoFar)")

        // Over MQTT: once the box is connected (its retained state is there), tune 3.
        let watch = try MQTTWatch(port: broker.port, topics: [topics.state])
        #expect(await watch.first(seconds: 20) { $0.topic == topics.state } != nil, "no state from the box: \(zapper.stderrSoFar)")
        await #expect(try MosquittoBroker.publish(port: broker.port, topic: topics.command("tune"), payload: "3").status == 0)
        #expect(await zapper.waitFor(.firstFrame, skipping: 1, seconds: 40), "\(zapper.stderrSoFar)")
        // Over HTTP: tune 5.
        let tune = try await RawHTTPConnection.fetch(port: port, "POST", "/command/tune", body: "5", headers: ["Authorization": "Bearer \(token)"])
        #expect(tune.status == 200, "\(tune.text)")
        #expect(await zapper.waitFor(.firstFrame, skipping: 2, seconds: 40), "\(zapper.stderrSoFar)")

        let zaps = await prometheus.poll("sum(zapper_zap_seconds_count)") { $0.first?.value == 3 }
        let onScreen = await prometheus.poll("zapper_channel_info") { $0.first?.labels["number"] == "5" }
        await zapper.kill()
        #expect(zaps?.first?.value == 3, "\(prometheus.log)")
        #expect(onScreen?.count == 1 && onScreen?.first?.value == 1, "\(String(describing: onScreen))")
        let channels = zapper.events.filter { $0.event.name == .firstFrame }.compactMap(\.channel)
        #expect(channels == [1, 3, 5], "\(channels)")
    }
}
