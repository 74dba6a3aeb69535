import Foundation

/// The cache's segments and logos, memory-mapped: served without copies
/// through the page cache, and no disk read blocks a request.
public final class EncodedLibrary: Sendable {
    public let catalog: ChannelCatalog
    public let manifest: CacheManifest
    private let segments: [Int: [String: [Data]]]
    private let logos: [Int: Data]

    public init(catalog: ChannelCatalog, prepared: EncodeCache.Prepared) throws {
        self.catalog = catalog
        manifest = prepared.manifest
        var segments: [Int: [String: [Data]]] = [:]
        var logos: [Int: Data] = [:]
        for entry in prepared.manifest.channels {
            let folder = prepared.directory.appendingPathComponent(entry.folder)
            var renditions: [String: [Data]] = [:]
            for (name, durations) in entry.renditions {
                renditions[name] = try durations.indices.map { index in
                    let url = folder.appendingPathComponent("\(name)/\(index).ts")
                    do {
                        return try Data(contentsOf: url, options: .alwaysMapped)
                    } catch {
                        throw OriginError.badCache(path: url.path, reason: "missing segment (delete the cache folder to encode again)")
                    }
                }
            }
            segments[entry.number] = renditions
            logos[entry.number] = try Data(contentsOf: folder.appendingPathComponent("logo.png"), options: .alwaysMapped)
        }
        self.segments = segments
        self.logos = logos
    }

    public func entry(channel: Int) -> CacheManifest.Channel? {
        manifest.channels.first { $0.number == channel }
    }

    public func segment(channel: Int, rendition: String, loopIndex: Int) -> Data? {
        guard let list = segments[channel]?[rendition], list.indices.contains(loopIndex) else { return nil }
        return list[loopIndex]
    }

    public func segmentSizes(channel: Int, rendition: String) -> [Int] {
        segments[channel]?[rendition]?.map(\.count) ?? []
    }

    public func logo(channel: Int) -> Data? { logos[channel] }
}
