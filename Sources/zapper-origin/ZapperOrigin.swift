import ArgumentParser
import Foundation
import OriginKit

/// zapper-origin: the live HLS demo origin (wiring only; the work is in OriginKit).
@main
struct ZapperOrigin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "zapper-origin",
        abstract: "Serve the demo channels as live HLS on 127.0.0.1.",
        discussion: """
            The first run encodes a short loop per channel with ffmpeg into the cache; later runs reuse it.
            Faults: --fault N:SPEC, or while running:
              curl -X PUT -d 'delay=3000' http://127.0.0.1:8600/control/faults/N
              curl -X DELETE http://127.0.0.1:8600/control/faults/N
            SPEC is a comma-separated list of: segment-404, playlist-5xx[=CODE], stall, bandwidth=BYTES_PER_S,
            truncate[=FRACTION], reset[=FRACTION], outage, delay=MS, freeze.
            """)

    @Option(help: "TCP port on 127.0.0.1 (0 picks a free one).")
    var port = 8600

    @Option(help: "The address to listen on: 127.0.0.1, or another of this host's (a bench's shaped link).")
    var bind = "127.0.0.1"

    @Option(help: "The channel table.")
    var channels = "channels/channels.json"

    @Option(help: "Cache folder for the encoded loops (default: $ZAPPER_ORIGIN_CACHE, $XDG_CACHE_HOME/zapper-origin or ~/.cache/zapper-origin).")
    var cache: String?

    @Option(name: .customLong("fault"), help: "A fault at start, as CHANNEL:SPEC (repeatable).")
    var faults: [String] = []

    @Option(help: "PEM certificate (chain) for an https listener beside the http one (with --tls-key).")
    var tlsCert: String?

    @Option(help: "PEM private key of --tls-cert.")
    var tlsKey: String?

    @Option(help: "TCP port on 127.0.0.1 of the https listener (0 picks a free one).")
    var tlsPort = 8643

    @Flag(help: "Encode the cache if needed, then exit.")
    var encodeOnly = false

    @Flag(help: "Exit when standard input closes (for a parent process that may die).")
    var exitWithStdin = false

    @Flag(help: "Log every request.")
    var verbose = false

    func run() async throws {
        let catalogURL = URL(fileURLWithPath: channels)
        let catalog = try ChannelCatalog.load(from: catalogURL)
        var startFaults: [(Int, FaultSet)] = []
        for item in faults {
            let parts = item.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2, let number = Int(parts[0]), catalog.channel(number: number) != nil else {
                throw ValidationError("--fault \(item): expected CHANNEL:SPEC with a channel number from \(channels)")
            }
            do {
                startFaults.append((number, try FaultSet(spec: parts[1])))
            } catch {
                throw ValidationError("--fault \(item): \(error)")
            }
        }

        let tls: OriginTLS?
        switch (tlsCert, tlsKey) {
        case (nil, nil): tls = nil
        case (let cert?, let key?): tls = OriginTLS(certificateFile: cert, keyFile: key)
        default: throw ValidationError("--tls-cert and --tls-key go together")
        }

        let cacheRoot = cache.map { URL(fileURLWithPath: $0) } ?? EncodeCache.defaultRoot()
        let prepared = try EncodeCache(root: cacheRoot).prepare(catalog: catalog) { line in
            FileHandle.standardError.write(Data("zapper-origin: \(line)\n".utf8))
        }
        let took = String(format: "%.0f", prepared.manifest.encodeSeconds)
        if prepared.reused {
            note("using the cached loops in \(prepared.directory.path) (their encodes took \(took) s)")
        } else {
            note("encoded channel(s) \(prepared.encoded.map(String.init).joined(separator: ", ")) into \(prepared.directory.path)")
        }
        if encodeOnly { return }

        let library = try EncodedLibrary(catalog: catalog, prepared: prepared)
        let board = FaultBoard()
        let now = Date().timeIntervalSince1970
        for (number, set) in startFaults {
            board.set(set, channel: number, now: now)
            note("channel \(number): fault \(set.spec)")
        }
        let log: (@Sendable (String) -> Void)? = verbose ? { @Sendable line in note(line) } : nil
        let host = bind
        let server = try await OriginHTTPServer.start(host: host, port: port, router: { port in
            OriginRouter(library: library, faults: board, defaultHost: "\(host):\(port)")
        }, accessLog: log)
        var listening = "zapper-origin: listening on http://\(host):\(server.port) (lineup http://\(host):\(server.port)/demo.m3u)"
        var secure: OriginHTTPServer?
        if let tls {
            let plainHost = "127.0.0.1:\(server.port)"
            let started = try await OriginHTTPServer.start(port: tlsPort, router: { port in
                OriginRouter(library: library, faults: board, defaultHost: "127.0.0.1:\(port)", plainHost: plainHost)
            }, tls: tls, accessLog: log)
            listening += " and https://127.0.0.1:\(started.port)"
            secure = started
        }
        FileHandle.standardOutput.write(Data((listening + "\n").utf8))

        if exitWithStdin {
            Thread.detachNewThread {
                while FileHandle.standardInput.availableData.count > 0 {}
                Foundation.exit(0)
            }
        }
        for signal in [SIGINT, SIGTERM] {
            Foundation.signal(signal) { _ in Foundation.exit(0) }
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await server.run() }
            if let secure { group.addTask { try await secure.run() } }
            try await group.next()
        }
    }
}

func note(_ line: String) {
    FileHandle.standardError.write(Data("zapper-origin: \(line)\n".utf8))
}
