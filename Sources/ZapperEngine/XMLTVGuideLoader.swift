import Foundation
import ZapperCore
import ZapperGuide
import ZapperHLS

/// Reads an XMLTV guide from a file or over http(s), streaming (gzip or not),
/// keeping only the channels and the window asked for.
public struct XMLTVGuideLoader: GuideLoader {
    public let source: String
    /// A guide download must be whole within this long (a server that trickles would
    /// otherwise hold the refresh for good).
    public static let downloadSeconds = 300.0

    public init(source: String) {
        self.source = source
    }

    public func load(window: GuideWindow, channelIDs: Set<String>) async throws -> (guide: Guide, problems: [String]) {
        let options = GuideReader.Options(window: window, channelIDs: channelIDs)
        let document: GuideDocument
        if let url = URL(string: source), url.scheme == "http" || url.scheme == "https" {
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
            document = try await reader.finish()
        } else {
            let path = source.hasPrefix("file://") ? String(source.dropFirst(7)) : source
            document = try await Task.detached { try GuideReader.read(path: path, options: options) }.value
        }
        return (document.guide, document.problems.map { "\($0)" })
    }
}

/// Logos and other small things over http(s), with the default request headers.
public struct HTTPByteLoader: ByteLoader {
    public init() {}

    public func bytes(_ url: URL, limit: Int) async throws -> [UInt8] {
        try await HTTPFetcher.shared.bytes(url, limit: limit)
    }
}
