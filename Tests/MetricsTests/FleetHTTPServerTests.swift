import Foundation
import Testing
import TestSupport
import ZapperCore
@testable import ZapperMetrics

/// The listener on loopback: /metrics served, other paths and methods refused, bodies bounded,
/// and a route may answer later from another thread.
@Suite(.timeLimit(.minutes(1))) struct FleetHTTPServerTests {
    @Test func servesMetricsAndRefusesWhatItDoesNotKnow() throws {
        let metrics = PlayerMetrics()
        metrics.record(.tune(channel: 7, channelName: "Seven", reason: .number, warm: false))
        metrics.record(.firstFrame(channel: 7, zapMilliseconds: 640))
        var routes = FleetRoutes()
        let guide = Date().addingTimeInterval(-120)
        MetricsEndpoint.add(to: &routes, metrics: metrics, started: 100, monotonic: { 160 }, guideLoadedAt: { guide })
        routes.add("POST", "/later") { request, answer in
            Thread { answer(FleetReply(status: 202, text: "took \(request.body.count) bytes")) }.start()
        }
        let server = try FleetHTTPServer.start(ListenAddress(host: "127.0.0.1", port: 0), routes: routes)
        defer { server.shutdown() }
        #expect(server.port > 0)

        let connection = try RawHTTPConnection(port: server.port)
        let scrape = try connection.request("GET", "/metrics")
        #expect(scrape.status == 200)
        #expect(scrape.headers["content-type"] == MetricsEndpoint.contentType)
        let exposition = Exposition(scrape.text)
        #expect(exposition[#"zapper_zap_seconds_count{kind="number"}"#] == 1)
        #expect(exposition[#"zapper_channel_info{number="7",name="Seven"}"#] == 1)
        #expect(exposition["zapper_uptime_seconds"] == 60)
        #expect((exposition["zapper_guide_age_seconds"] ?? 0) >= 120 && (exposition["zapper_guide_age_seconds"] ?? 0) < 180)
        #expect((exposition["zapper_resident_memory_bytes"] ?? 0) > 1_000_000)
        // The same connection (keep-alive) serves the next requests.
        #expect(try connection.request("GET", "/nothing").status == 404)
        #expect(try connection.request("DELETE", "/metrics").status == 405)
        let head = try connection.request("HEAD", "/metrics")
        #expect(head.status == 200 && head.body.isEmpty)
        #expect(try connection.request("POST", "/later", body: "abc").text == "took 3 bytes\n")
        let tooBig = try RawHTTPConnection.fetch(port: server.port, "POST", "/later",
                                                 body: String(repeating: "x", count: FleetHTTPServer.maxBodyBytes + 1))
        #expect(tooBig.status == 413)
    }

    @Test func aPortInUseIsAnError() throws {
        let first = try FleetHTTPServer.start(ListenAddress(host: "127.0.0.1", port: 0), routes: FleetRoutes())
        defer { first.shutdown() }
        #expect(throws: (any Error).self) {
            try FleetHTTPServer.start(ListenAddress(host: "127.0.0.1", port: first.port), routes: FleetRoutes())
        }
    }
}
