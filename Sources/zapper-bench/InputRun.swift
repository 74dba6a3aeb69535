import Foundation
import TestSupport
import ZapperMetrics
import ZapperSettings

/// The zapper runs of `zapper-bench inputs`: one per input, a channel of a lineup on the
/// offscreen display at 1080p, its peak resident memory read until it quits.
struct InputRun {
    let tools: Tools
    let directory: URL

    /// zapper's VmHWM: channel 1 until its first picture (or `until`'s event), then the panel
    /// opened (as every run ends, so the panel's memory is in each): by the script's own key,
    /// or by `during`'s last, which acts on zapper from another thread once the picture is in.
    func peak(name: String, lineup: String, channel: Int = 1, arguments: [String] = [], until event: String = "first-frame",
              during: (@Sendable () throws -> Void)? = nil) throws -> Int {
        // A `wait-event` sees what came after the waiting line before it ended: `during`'s key
        // comes after the first line, so nothing waits between the two.
        let script = "wait-event \(event) 180000\n" + (during == nil ? "wait 1000\npress KEY_UP\n" : "")
            + "wait-event panel-opened 120000\nwait 3000\nquit\n"
        let (child, eventsURL) = try scriptedZapper(name: "zapper-input-\(name)", tools: tools, directory: directory, lineup: lineup,
                                                    script: script, arguments: ["--channel", "\(channel)", "--size", "1920x1080"] + arguments)
        Progress.say("zapper with \(name)")
        try child.run()
        defer { child.stop() }
        let acting = during.map { act in
            return DispatchQueue.global().asyncWithError {
                while !((try? String(contentsOf: eventsURL, encoding: .utf8)) ?? "").contains("\"\(event)\"") { Thread.sleep(forTimeInterval: 0.1) }
                try act()
            }
        }
        var peak = 0
        while child.isRunning {
            peak = max(peak, ProcFS.memory(child.pid)?.peak ?? 0)
            guard Monotonic.now - child.startedAt < 900 else { throw BenchError("zapper with \(name) did not finish:\n\(child.stderrTail())") }
            Thread.sleep(forTimeInterval: 0.05)
        }
        if let acting, let failure = acting.wait() { throw failure }
        guard child.process.terminationStatus == 0 else { throw BenchError("zapper with \(name) failed:\n\(child.stderrTail())") }
        return peak
    }

    /// The API's bodies at their bound: 64 connections (the listener's cap) each posting 64 KB
    /// to `/command/key`, ten rounds, and ten bodies of 16 MB (refused as they come).
    func apiBodies(lineup: String, channel: Int, baseline: Int) throws -> InputRow {
        let port = try MosquittoBroker.freePort()
        let token = "bench-token-0123456789abcdef"
        let config = directory.appendingPathComponent("api.toml")
        try "[metrics]\nlisten = \"127.0.0.1:\(port)\"\n[api]\ntoken = \"\(token)\"\n".write(to: config, atomically: true, encoding: .utf8)
        let body = directory.appendingPathComponent("body-64k")
        try Data(repeating: 0x41, count: 64 * 1024).write(to: body)
        let huge = directory.appendingPathComponent("body-16m")
        try Data(repeating: 0x41, count: 16 << 20).write(to: huge)
        let url = "http://127.0.0.1:\(port)/command/key"
        let openPanel: @Sendable () throws -> Void = {
            _ = try Tool.run("curl", ["-s", "-o", "/dev/null", "-H", "Authorization: Bearer \(token)", "-d", "KEY_UP", url])
        }
        // The listener's own cost is not the bodies': its baseline serves it, idle.
        let idle = try peak(name: "api-idle", lineup: lineup, channel: channel, arguments: ["--config", config.path], during: openPanel)
        let sent = Counter()
        let peak = try peak(name: "api", lineup: lineup, channel: channel, arguments: ["--config", config.path]) {
            // Each round one curl with its requests all open at once (`--parallel`).
            for round in 0..<11 {
                let (file, count) = round == 10 ? (huge, 10) : (body, 64)
                let result = try Tool.run("curl", ["-s", "-Z", "--parallel-max", "64", "-H", "Authorization: Bearer \(token)",
                                                   "--data-binary", "@\(file.path)", "-w", "%{http_code}\\n"]
                                                  + Array(repeating: ["-o", "/dev/null", url], count: count).flatMap { $0 })
                // A status code for each request answered ("000": none came).
                for code in String(decoding: result.stdout, as: UTF8.self).split(separator: "\n") where code != "000" { sent.add() }
            }
            try openPanel()
        }
        Progress.say("API: \(sent.value) of 650 bodies answered")
        return InputRow(input: "API: 64 connections × 64 KB bodies, 10 rounds; ten 16 MB bodies", bound: "\(FleetConnections.Limits().mostConnections) connections × \(FleetHTTPServer.maxBodyBytes >> 10) KB",
                        allowed: FleetConnections.Limits().mostConnections * FleetHTTPServer.maxBodyBytes,
                        size: FleetConnections.Limits().mostConnections * FleetHTTPServer.maxBodyBytes, peak: peak, baseline: idle,
                        baselineNote: "the API on, idle; none at all: \(String(format: "%.1f MB", Double(baseline) / 1_048_576))")
    }

    /// MQTT at its bound: a real broker, 200 command messages of 16 KB (the packet size zapper
    /// announces) and one of 256 MB, which the broker never hands to zapper. Nil without mosquitto.
    func mqttMessages(lineup: String, channel: Int, baseline: Int) throws -> InputRow? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/sbin/mosquitto") else {
            Progress.say("MQTT: no mosquitto here (apt install mosquitto mosquitto-clients); row left out")
            return nil
        }
        let broker = try MosquittoBroker()
        let config = directory.appendingPathComponent("mqtt.toml")
        try "[mqtt]\nbroker = \"mqtt://127.0.0.1:\(broker.port)\"\nbox-id = \"bench\"\n".write(to: config, atomically: true, encoding: .utf8)
        let message = directory.appendingPathComponent("message-16k")
        try Data(repeating: 0x41, count: 16 * 1024 - 64).write(to: message)
        let huge = directory.appendingPathComponent("message-256m")
        try Data(repeating: 0x41, count: 256 << 20).write(to: huge)
        let publish: @Sendable ([String]) throws -> Void = { arguments in
            _ = try Tool.run("mosquitto_pub", ["-h", "127.0.0.1", "-p", "\(broker.port)", "-q", "1", "-t", "zapper/bench/command/key"] + arguments)
        }
        // Messages are sent once the link is up: its availability (retained) says `online`.
        let online: @Sendable () throws -> Void = {
            for _ in 0..<60 {
                let seen = try Tool.run("mosquitto_sub", ["-h", "127.0.0.1", "-p", "\(broker.port)", "-t", "zapper/bench/availability", "-C", "1", "-W", "1"])
                if String(decoding: seen.stdout, as: UTF8.self).hasPrefix("online") { return }
                Thread.sleep(forTimeInterval: 0.5)
            }
            throw BenchError("zapper's MQTT link did not come online in 90 s")
        }
        // The link's own cost is not the messages': its baseline is connected, with none.
        let idle = try peak(name: "mqtt-idle", lineup: lineup, channel: channel, arguments: ["--config", config.path]) {
            try online()
            try publish(["-m", "KEY_UP"])
        }
        let peak = try peak(name: "mqtt", lineup: lineup, channel: channel, arguments: ["--config", config.path]) {
            try online()
            for _ in 0..<200 { try publish(["-f", message.path]) }
            try publish(["-f", huge.path])
            try publish(["-m", "KEY_UP"])
        }
        broker.stop()
        return InputRow(input: "MQTT: 200 messages of 16 KB, one of 256 MB", bound: "16 KB a packet (MQTT v5), 16 commands waiting",
                        allowed: 16 * 16 * 1024, size: 16 * 1024, peak: peak, baseline: idle,
                        baselineNote: "connected, no messages; no MQTT at all: \(String(format: "%.1f MB", Double(baseline) / 1_048_576))")
    }
}

/// A count shared by threads.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func add() { lock.withLock { count += 1 } }
}

extension DispatchQueue {
    /// Runs `work` on this queue; `wait()` gives its error, if any.
    func asyncWithError(_ work: @escaping @Sendable () throws -> Void) -> PendingWork {
        let pending = PendingWork()
        async {
            do { try work() } catch { pending.failure = error }
            pending.done.signal()
        }
        return pending
    }
}

/// Work started on a queue: its end and its error.
final class PendingWork: @unchecked Sendable {
    let done = DispatchSemaphore(value: 0)
    var failure: (any Error)?
    func wait() -> (any Error)? {
        done.wait()
        return failure
    }
}
