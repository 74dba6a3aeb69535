import Foundation

/// The cache's segments and logos, memory-mapped: served without copies
/// through the page cache, and no disk read blocks a request.
public final class EncodedLibrary: Sendable {
    public let catalog: ChannelCatalog
    public let manifest: CacheManifest
    private let segments: [Int: [String: [Data]]]
    /// FragmentedMP4's channel: per rendition, its initialization section and media segments.
    private let fragmented: [Int: [String: (initSection: Data, segments: [Data])]]
    private let logos: [Int: Data]
    /// The broadcast channels' loops.
    let broadcast: BroadcastSegments

    public init(catalog: ChannelCatalog, prepared: EncodeCache.Prepared) throws {
        self.catalog = catalog
        manifest = prepared.manifest
        var segments: [Int: [String: [Data]]] = [:]
        var logos: [Int: Data] = [:]
        var fragmented: [Int: [String: (initSection: Data, segments: [Data])]] = [:]
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
            for (name, durations) in entry.fragmented ?? [:] {
                let rendition = folder.appendingPathComponent("\(FragmentedMP4.folder)/\(name)")
                func load(_ file: String) throws -> Data {
                    let url = rendition.appendingPathComponent(file)
                    do {
                        return try Data(contentsOf: url, options: .alwaysMapped)
                    } catch {
                        throw OriginError.badCache(path: url.path, reason: "missing fMP4 file (delete the cache folder to encode again)")
                    }
                }
                fragmented[entry.number, default: [:]][name] = (try load(FragmentedMP4.initFile),
                                                                try durations.indices.map { try load("\($0).m4s") })
            }
            logos[entry.number] = try Data(contentsOf: folder.appendingPathComponent("logo.png"), options: .alwaysMapped)
        }
        broadcast = try BroadcastSegments(entries: prepared.broadcast, root: prepared.directory)
        self.segments = segments
        self.logos = logos
        self.fragmented = fragmented
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

    public func logo(channel: Int) -> Data? { logos[channel] ?? broadcast.logo(channel: channel) }

    public func fragmentedInit(channel: Int, rendition: String) -> Data? { fragmented[channel]?[rendition]?.initSection }

    public func fragmentedSegment(channel: Int, rendition: String, loopIndex: Int) -> Data? {
        guard let list = fragmented[channel]?[rendition]?.segments, list.indices.contains(loopIndex) else { return nil }
        return list[loopIndex]
    }

    public func fragmentedSizes(channel: Int, rendition: String) -> [Int] {
        fragmented[channel]?[rendition]?.segments.map(\.count) ?? []
    }
}
