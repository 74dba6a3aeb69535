import Foundation
import ZapperCore
import ZapperGuide
import ZapperHLS

/// Reads XMLTV guides from files or over http(s), streaming (gzip or not),
/// keeping only the channels and the window asked for. Several guides (a
/// lineup's `url-tvg` may list more than one) are read in turn and merged; one
/// that fails is said, and the others still count. With a cache, each read that worked is
/// kept, and when none works the kept one stands in (stale, and said).
public struct XMLTVGuideLoader: GuideLoader {
    public let sources: [String]
    public let cache: GuideCache?
    public var source: String { sources.joined(separator: ", ") }
    /// A guide download must be whole within this long (a server that trickles would
    /// otherwise hold the refresh for good).
    public static let downloadSeconds = 300.0

    public init(sources: [String], cache: GuideCache? = nil) {
        self.sources = sources
        self.cache = cache
    }

    public init(source: String) {
        self.init(sources: [source])
    }

    public func load(window: GuideWindow, wanted: GuideWanted) async throws -> GuideRead {
        do {
            let read = try await loadSources(window: window, wanted: wanted)
            do {
                try cache?.save(read.guide)
            } catch {
                return GuideRead(guide: read.guide, problems: read.problems + ["cannot keep a copy of the guide: \(error)"])
            }
            return read
        } catch {
            guard let snapshot = cache?.load() else { throw error }
            let when = ISO8601DateFormatter().string(from: snapshot.readAt)
            return GuideRead(guide: snapshot.guide(window: window), problems: ["no guide could be read (\(error)); the copy read at \(when) stands in"],
                             staleSince: snapshot.readAt)
        }
    }

    private func loadSources(window: GuideWindow, wanted: GuideWanted) async throws -> GuideRead {
        let options = GuideReader.Options(window: window, wanted: wanted)
        var merged: Guide?
        var problems: [String] = []
        var firstError: (any Error)?
        for source in sources {
            do {
                let document = try await Self.read(source, options: options)
                merged = merged.map { $0.merging(document.guide, window: window) } ?? document.guide
                problems += document.problems.map { "\($0)" }
            } catch {
                firstError = firstError ?? error
                problems.append("\(source): \(error)")
            }
        }
        guard let merged else { throw firstError ?? NoGuide() }
        return GuideRead(guide: merged, problems: problems)
    }

    /// A guide named by a URL of a scheme it cannot be read by (`ftp:`, `HTTP:` with no host).
    struct UnreadableGuide: Error, CustomStringConvertible {
        var source: String
        var scheme: String
        var description: String { scheme == "http" || scheme == "https" ? "\(source) is not a URL with a host" : "\(source): \(scheme): is not http, https or a file" }
    }

    struct NoGuide: Error, CustomStringConvertible {
        var description: String { "no guide is named" }
    }

    private static func read(_ source: String, options: GuideReader.Options) async throws -> GuideDocument {
        // Schemes are case-insensitive: `HTTP://` is fetched, never read as a local path.
        let scheme = URL(string: source)?.scheme?.lowercased()
        guard scheme == "http" || scheme == "https", case .success(let url) = MediaURLPolicy.check(source) else {
            guard scheme == nil || scheme == "file" else { throw UnreadableGuide(source: source, scheme: scheme ?? "") }
            let path = scheme == "file" ? String(source.dropFirst(7)) : source
            return try await Task.detached { try GuideReader.read(path: path, options: options) }.value
        }
        let reader = GuideReader(source: source, options: options)
        do {
            let deadline = HTTPFetcher.now() + Self.downloadSeconds
            let response = try await HTTPFetcher.shared.start(url)
            var bytes = 0
            for try await chunk in response.body {
                bytes += chunk.readableBytes
                try HTTPFetcher.check(deadline: deadline, url: url, bytes: bytes)
                try await reader.feed(Array(chunk.readableBytesView))
            }
        } catch {
            reader.cancel()
            throw error
        }
        return try await reader.finish()
    }
}

/// Logos and other small things over http(s), with the default request headers.
public struct HTTPByteLoader: ByteLoader {
    public init() {}

    public func bytes(_ url: URL, limit: Int) async throws -> [UInt8] {
        try await HTTPFetcher.shared.bytes(url, limit: limit)
    }
}
