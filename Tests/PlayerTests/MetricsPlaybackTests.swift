import Foundation
import Testing
import TestSupport
import ZapperCore

/// `[metrics] listen` through the real binary: its scrape passes `promtool check metrics`, and a
/// real Prometheus server scraping it reads back the zaps and the channel on screen.
extension ZapperPlaybackTests {
    /// Starts zapper on the demo lineup with metrics on a free loopback port: channel 1, then CH+
    /// to channel 2 once 1 is on screen; it plays on until the test ends it.
    func zapperServingMetrics() async throws -> (zapper: LaunchedZapper, port: Int, config: URL) {
        let config = try metricsConfig()
        let zapper = try await LaunchedZapper(lineup: try demoLineup(), arguments: ["--config", config.path, "--size", "320x180"], script: """
            wait-event first-frame 20000
            wait 1500
            press KEY_CHANNELUP
            wait-event first-frame 20000
            wait 120000
            quit
            """)
        let port = await metricsPort(of: zapper)
        #expect(await zapper.waitFor(.firstFrame, skipping: 1, seconds: 40), "\(zapper.stderrSoFar)")
        return (zapper, try #require(port, "no metrics address said: \(zapper.stderrSoFar)"), config)
    }

    /// The port a zapper started with `listen = "127.0.0.1:0"` says it serves metrics on (nil after 20 s).
    func metricsPort(of zapper: LaunchedZapper) async -> Int? {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            // "zapper: metrics: http://127.0.0.1:PORT/metrics" (or 0.0.0.0)
            if let port = zapper.stderrSoFar.split(separator: "\n").first(where: { $0.contains("metrics: http://") })
                .flatMap({ $0.split(separator: ":").last?.split(separator: "/").first }).flatMap({ Int($0) }) {
                return port
            }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return nil
    }

    /// A config file turning metrics on, on a free loopback port.
    func metricsConfig() throws -> URL {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("zapper-metrics-\(UUID().uuidString).toml")
        try "[metrics]\nlisten = \"127.0.0.1:0\"\n".write(to: config, atomically: true, encoding: .utf8)
        return config
    }

    @Test func aScrapeOfTheRunningBinaryPassesPromtool() async throws {
        let (zapper, port, config) = try await zapperServingMetrics()
        defer { try? FileManager.default.removeItem(at: config) }
        let scrape = try await RawHTTPConnection.fetch(port: port, "GET", "/metrics")
        await zapper.kill()
        #expect(scrape.status == 200)
        #expect(scrape.headers["content-type"]?.hasPrefix("text/plain; version=0.0.4") == true)
        let text = scrape.text
        for line in [#"zapper_tunes_total{reason="start"} 1"#, #"zapper_tunes_total{reason="next"} 1"#, "zapper_first_frames_total 2",
                     #"zapper_zap_seconds_count{kind="cold"} 1"#, #"zapper_zap_seconds_count{kind="adjacent"} 1"#,
                     #"zapper_channel_info{number="2",name="Green Two"} 1"#] {
            // A gauge's value is written as a Double (1.0), a counter's as an integer.
            #expect(text.contains(line + "\n") || text.contains(line + ".0\n"), "\(line) not in:\n\(text)")
        }
        #expect(text.contains("\nzapper_resident_memory_bytes ") && text.contains("\nzapper_cpu_seconds_total "), "\(text)")
        // jemalloc's counters, each a part of the one before it, and all of them of the process's RSS.
        let bytes = { (name: String) in Self.sample(text, "zapper_allocator_bytes{state=\"\(name)\"}") ?? -1 }
        let resident = Self.sample(text, "zapper_resident_memory_bytes") ?? 0
        #expect(bytes("allocated") > 1_000_000 && bytes("allocated") <= bytes("active") && bytes("active") < bytes("resident")
                && bytes("resident") < resident && bytes("dirty") >= 0 && bytes("metadata") > 0, "\(text)")
        let file = try Tool.temporaryFile(Array(scrape.body), suffix: ".prom")
        defer { try? FileManager.default.removeItem(at: file) }
        let check = try await Tool.run("sh", ["-c", "promtool check metrics < '\(file.path)'"])
        #expect(check.status == 0, "promtool check metrics: \(String(decoding: check.stdout, as: UTF8.self)) \(check.stderr)\n\(text)")
    }

    @Test func aPrometheusServerScrapesTheZapsAndTheChannelOnScreen() async throws {
        let (zapper, port, config) = try await zapperServingMetrics()
        defer { try? FileManager.default.removeItem(at: config) }
        let prometheus = try PrometheusServer(scraping: port)
        defer { prometheus.stop() }
        let zaps = await prometheus.poll("sum(zapper_zap_seconds_count)") { $0.first?.value == 2 }
        let adjacent = await prometheus.poll(#"zapper_zap_seconds_count{kind="adjacent"}"#) { $0.first?.value == 1 }
        let onScreen = await prometheus.poll("zapper_channel_info") { $0.count == 1 && $0.first?.value == 1 }
        let up = await prometheus.poll("up") { $0.first?.value == 1 }
        await zapper.kill()
        #expect(zaps?.first?.value == 2, "\(prometheus.log)")
        #expect(adjacent?.first?.value == 1)
        #expect(onScreen?.first?.labels["number"] == "2" && onScreen?.first?.labels["name"] == "Green Two", "\(String(describing: onScreen))")
        #expect(up?.first?.labels["job"] == "zapper")
    }

    /// The value of the series written exactly `series` in a scrape's text.
    static func sample(_ text: String, _ series: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix(series + " ") }.flatMap { Double($0.dropFirst(series.count + 1)) }
    }
}

/// A real Prometheus server (Debian's `prometheus`) on a free loopback port, with its own config
/// and storage in a scratch folder, scraping one zapper every second.
final class PrometheusServer {
    struct Sample {
        var labels: [String: String]
        var value: Double
    }

    private let process = Process()
    private let folder: URL
    let port: Int

    init(scraping target: Int) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("zapper-prometheus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        port = try MosquittoBroker.freePort()
        let config = folder.appendingPathComponent("prometheus.yml")
        try """
            global:
              scrape_interval: 1s
              scrape_timeout: 1s
              evaluation_interval: 1s
            scrape_configs:
              - job_name: zapper
                static_configs:
                  - targets: ["127.0.0.1:\(target)"]
            """.write(to: config, atomically: true, encoding: .utf8)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/prometheus")
        process.arguments = ["--config.file=\(config.path)", "--storage.tsdb.path=\(folder.appendingPathComponent("data").path)",
                             "--web.listen-address=127.0.0.1:\(port)", "--log.level=warn"]
        _ = FileManager.default.createFile(atPath: folder.appendingPathComponent("log").path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: folder.appendingPathComponent("log"))
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    var log: String { (try? String(contentsOf: folder.appendingPathComponent("log"), encoding: .utf8)) ?? "" }

    /// The instant query's vector, once `accept` holds (nil after 30 s).
    func poll(_ query: String, until accept: ([Sample]) -> Bool) async -> [Sample]? {
        let deadline = Date().addingTimeInterval(30)
        var last: [Sample]?
        while Date() < deadline, process.isRunning {
            last = try? self.query(query)
            if let last, accept(last) { return last }
            try? await Task.sleep(for: .milliseconds(250))
        }
        return last
    }

    /// GET /api/v1/query: the vector result's samples.
    func query(_ query: String) throws -> [Sample] {
        let encoded = query.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? query
        let response = try RawHTTPConnection.fetch(port: port, "GET", "/api/v1/query?query=\(encoded)")
        guard response.status == 200,
              let json = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
              json["status"] as? String == "success", let data = json["data"] as? [String: Any],
              let result = data["result"] as? [[String: Any]] else { return [] }
        return result.compactMap { entry in
            guard let labels = entry["metric"] as? [String: String], let value = entry["value"] as? [Any],
                  value.count == 2, let number = (value[1] as? String).flatMap(Double.init) else { return nil }
            return Sample(labels: labels, value: number)
        }
    }

    func stop() {
        process.terminate()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: folder)
    }
}
