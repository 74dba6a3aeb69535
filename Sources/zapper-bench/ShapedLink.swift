import Foundation

/// The origin behind a real link: a network namespace joined to this one by a veth pair,
/// each end's egress shaped by `tc`. With `netem` (round trip, rate and loss in the kernel)
/// where the kernel has it; else `tbf` shapes the rate and a `DelayRelay` in front of the
/// origin adds the round trip, and loss is not made (said in `mechanism`). Needs root.
final class ShapedLink {
    let namespace: String
    let hostAddress: String
    let originAddress: String
    let profile: NetworkProfile
    /// How the link is made, for the report.
    private(set) var mechanism = ""
    /// Whether the round trip must come from a relay (no netem here).
    private(set) var needsRelay = false
    private let hostDevice: String
    private let namespaceDevice: String

    init(profile: NetworkProfile) throws {
        self.profile = profile
        let tag = String(getpid() % 100_000)
        namespace = "zapbench\(tag)"
        hostDevice = "zbh\(tag)"
        namespaceDevice = "zbn\(tag)"
        let subnet = Int(getpid() % 200) + 20
        hostAddress = "10.213.\(subnet).1"
        originAddress = "10.213.\(subnet).2"
        guard geteuid() == 0 else { throw BenchError("--network needs root (network namespaces and tc)") }
        do {
            try Self.ip(["netns", "add", namespace])
            try Self.ip(["link", "add", hostDevice, "type", "veth", "peer", "name", namespaceDevice])
            try Self.ip(["link", "set", namespaceDevice, "netns", namespace])
            try Self.ip(["addr", "add", "\(hostAddress)/24", "dev", hostDevice])
            try Self.ip(["link", "set", hostDevice, "up"])
            try Self.ip(["netns", "exec", namespace, "ip", "addr", "add", "\(originAddress)/24", "dev", namespaceDevice])
            try Self.ip(["netns", "exec", namespace, "ip", "link", "set", namespaceDevice, "up"])
            try Self.ip(["netns", "exec", namespace, "ip", "link", "set", "lo", "up"])
            try shape()
        } catch {
            tearDown()
            throw error
        }
    }

    /// `tc` on both ends: half the round trip, the rate and the loss each way.
    private func shape() throws {
        let half = Double(profile.rtt) / 2
        let netem = ["qdisc", "add", "dev"] + ["DEV", "root", "netem", "delay", "\(half)ms", "rate", "\(profile.megabits)mbit",
                                                "loss", "\(profile.lossPercent)%", "limit", "10000"]
        func on(_ device: String, inNamespace: Bool, _ arguments: [String]) throws {
            let tc = arguments.map { $0 == "DEV" ? device : $0 }
            if inNamespace { try Self.ip(["netns", "exec", namespace, "tc"] + tc) } else { try Self.run("/usr/sbin/tc", tc) }
        }
        do {
            try on(hostDevice, inNamespace: false, netem)
            try on(namespaceDevice, inNamespace: true, netem)
            mechanism = "network namespace + veth, tc netem on both ends (delay \(half) ms, rate, loss)"
        } catch {
            // No netem in this kernel: the rate in the kernel, the round trip from a relay.
            let tbf = ["qdisc", "replace", "dev", "DEV", "root", "tbf", "rate", "\(profile.megabits)mbit", "burst", "64kb", "latency", "300ms"]
            try on(hostDevice, inNamespace: false, tbf)
            try on(namespaceDevice, inNamespace: true, tbf)
            needsRelay = true
            mechanism = "network namespace + veth, tc tbf on both ends (rate); this kernel has no netem, so the round trip comes from "
                + "a relay that holds every chunk \(half) ms each way (and a connection's first bytes one round trip more, its handshake)"
                + (profile.lossPercent > 0 ? "; loss is NOT made here" : "")
        }
    }

    /// The command run inside the namespace (prefix for a child process).
    var launcher: [String] { ["/usr/sbin/ip", "netns", "exec", namespace] }

    func tearDown() {
        _ = try? Self.ip(["netns", "del", namespace])
        _ = try? Self.ip(["link", "del", hostDevice])
    }

    private static func ip(_ arguments: [String]) throws { try run("/usr/sbin/ip", arguments) }

    private static func run(_ tool: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchError("\(tool) \(arguments.joined(separator: " ")): \(text.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
    }
}
