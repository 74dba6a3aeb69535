import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A `zapper-origin` started by the bench on a free port; it exits when the
/// bench closes its standard input (or dies).
final class OriginServer {
    let child: ChildProcess
    /// e.g. http://127.0.0.1:40123
    let baseURL: String
    private let input = Pipe()

    /// `extra`: more arguments, e.g. `--fault 3:delay=3000`; `launcher`: a command that runs it
    /// (`ip netns exec NAME`, behind a shaped link).
    init(binary: URL, channels: String, directory: URL, extra: [String] = [], launcher: [String] = []) throws {
        let arguments = ["--port", "0", "--exit-with-stdin", "--channels", channels] + extra
        child = try ChildProcess(name: "zapper-origin", executable: launcher.first.map { URL(fileURLWithPath: $0) } ?? binary,
                                 arguments: launcher.isEmpty ? arguments : Array(launcher.dropFirst()) + [binary.path] + arguments,
                                 directory: directory, standardInput: input)
        try child.run()
        // Its first line on standard output says where it listens (after encoding, on a cold cache).
        var tail = LogTail(url: child.stdoutURL)
        var found: String?
        let deadline = Monotonic.now + 900
        while found == nil, Monotonic.now < deadline {
            if let line = tail.newLines().first(where: { $0.contains("listening on ") }) {
                found = line.components(separatedBy: "listening on ").last?.split(separator: " ").first.map(String.init)
                break
            }
            guard child.isRunning else { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        guard let found else {
            child.stop()
            throw BenchError("zapper-origin did not start:\n\(child.stderrTail())")
        }
        baseURL = found
    }

    /// The port in `baseURL`.
    var port: Int { Int(baseURL.split(separator: ":").last ?? "") ?? 0 }

    func stop() {
        try? input.fileHandleForWriting.close()
        if !child.waitForExit(seconds: 5) { child.stop() }
    }
}

/// A variant of a master playlist, in the playlist's order (the order zapper's
/// HLS client numbers them in).
struct MasterVariant {
    var index: Int
    var bandwidth: Int
    var width: Int
    var height: Int
    var frameRate: Double?
    var url: String
    var resolution: String { "\(width)x\(height)" }
}

enum HTTP {
    static func text(_ url: String) throws -> String {
        guard let address = URL(string: url) else { throw BenchError("\(url): not a URL") }
        do {
            return String(decoding: try Data(contentsOf: address), as: UTF8.self)
        } catch {
            throw BenchError("GET \(url): \(error.localizedDescription)")
        }
    }

    /// The channel numbers of a lineup (its `tvg-chno` attributes), in order.
    static func channelNumbers(lineup: String) -> [Int] {
        lineup.split(whereSeparator: \.isNewline).compactMap { line -> Int? in
            guard let range = line.range(of: "tvg-chno=\"") else { return nil }
            return Int(line[range.upperBound...].prefix { $0.isNumber })
        }
    }

    static func data(_ url: String) throws -> Data {
        guard let address = URL(string: url) else { throw BenchError("\(url): not a URL") }
        return try Data(contentsOf: address)
    }

    /// The STREAM-INF variants of a master playlist (only what the bench needs:
    /// bandwidth, resolution, URI resolved against the playlist's URL).
    static func variants(master url: String) throws -> [MasterVariant] {
        let lines = try text(url).split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        var result: [MasterVariant] = []
        var pending: (bandwidth: Int, width: Int, height: Int, frameRate: Double?)?
        for line in lines where !line.isEmpty {
            if line.hasPrefix("#EXT-X-STREAM-INF:") {
                let attributes = attributeValues(String(line.dropFirst("#EXT-X-STREAM-INF:".count)))
                let size = (attributes["RESOLUTION"] ?? "0x0").split(separator: "x").compactMap { Int($0) }
                pending = (Int(attributes["BANDWIDTH"] ?? "") ?? 0, size.first ?? 0, size.count > 1 ? size[1] : 0,
                           attributes["FRAME-RATE"].flatMap { Double($0) })
            } else if !line.hasPrefix("#"), let stream = pending {
                let resolved = URL(string: line, relativeTo: URL(string: url))?.absoluteString ?? line
                result.append(MasterVariant(index: result.count, bandwidth: stream.bandwidth,
                                            width: stream.width, height: stream.height, frameRate: stream.frameRate, url: resolved))
                pending = nil
            }
        }
        guard !result.isEmpty else { throw BenchError("\(url): no variants in the master playlist") }
        return result
    }

    /// The media segments of a media playlist: URL and EXTINF duration.
    static func segments(media url: String) throws -> [(url: String, seconds: Double)] {
        var result: [(url: String, seconds: Double)] = []
        var duration = 0.0
        for line in try text(url).split(whereSeparator: \.isNewline).map({ $0.trimmingCharacters(in: .whitespaces) }) where !line.isEmpty {
            if line.hasPrefix("#EXTINF:") {
                duration = Double(line.dropFirst("#EXTINF:".count).split(separator: ",").first ?? "") ?? 0
            } else if !line.hasPrefix("#") {
                result.append((URL(string: line, relativeTo: URL(string: url))?.absoluteString ?? line, duration))
            }
        }
        return result
    }

    /// NAME=VALUE pairs, commas inside quotes kept.
    private static func attributeValues(_ list: String) -> [String: String] {
        var values: [String: String] = [:]
        var name = ""
        var value = ""
        var inName = true
        var quoted = false
        for character in list + "," {
            if inName {
                if character == "=" { inName = false } else { name.append(character) }
            } else if character == "\"" {
                quoted.toggle()
            } else if character == ",", !quoted {
                values[name.trimmingCharacters(in: .whitespaces)] = value
                name = ""
                value = ""
                inName = true
            } else {
                value.append(character)
            }
        }
        return values
    }
}
