import Foundation

/// The broadcast channels' loops in the encode cache: one folder per channel,
/// named after its catalog entry, the loop, the recipe, ffmpeg and the font
/// (a change to one encodes that one again), made under the cache's lock in a
/// partial folder that is moved into place once whole (`DerivedFolder`).
public enum BroadcastCache {
    /// What one channel's folder holds.
    public struct Entry: Sendable, Equatable {
        public var number: Int
        /// Under the cache root.
        public var folder: String
        /// The segments' durations, as the segment muxer cut them.
        public var durations: [Double]
    }

    static func folderName(_ channel: BroadcastChannel, catalog: ChannelCatalog, ffmpeg: String, font: String) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let identity = try encoder.encode(channel)
            + Data("|\(catalog.loopSeconds)|\(catalog.segmentSeconds)|\(BroadcastRecipe.version)|\(ffmpeg)|\(font)".utf8)
            + Data((channel.subtitles == nil ? "" : "|subtitles \(BroadcastSubtitles.writerVersion)").utf8)
        return "bc\(channel.number)-\(fnv1a(identity))"
    }

    /// Every broadcast channel's entry, encoding those the cache does not have yet.
    static func prepare(catalog: ChannelCatalog, root: URL, ffmpeg: String, font: String,
                        log: (String) -> Void) throws -> (entries: [Entry], encoded: [Int]) {
        let channels = catalog.broadcastChannels
        let lockPath = root.appendingPathComponent(".lock").path
        var entries: [Entry] = [], encoded: [Int] = []
        for (step, channel) in channels.enumerated() {
            let folder = try folderName(channel, catalog: catalog, ffmpeg: ffmpeg, font: font)
            let target = root.appendingPathComponent(folder)
            if (try? DerivedFolder.read(target, as: [Double].self)) == nil {
                log("encoding broadcast channel \(channel.number) \"\(channel.name)\" (\(step + 1) of \(channels.count))…")
                encoded.append(channel.number)
            }
            let durations = try DerivedFolder.prepare(target, lockPath: lockPath) { partial in
                try encode(channel, catalog: catalog, font: font, into: partial)
            }
            entries.append(Entry(number: channel.number, folder: folder, durations: durations))
        }
        return (entries, encoded)
    }

    private static func encode(_ channel: BroadcastChannel, catalog: ChannelCatalog, font: String, into folder: URL) throws -> [Double] {
        let recipe = BroadcastRecipe(channel: channel, loopSeconds: catalog.loopSeconds,
                                     segmentSeconds: catalog.segmentSeconds, fontFile: font)
        let text = folder.appendingPathComponent("text")
        try FileManager.default.createDirectory(at: text, withIntermediateDirectories: true)
        for (name, content) in recipe.textFiles {
            try Data(content.utf8).write(to: text.appendingPathComponent(name))
        }
        var durations: [Double]?
        if let change = channel.change {
            durations = try BroadcastForms.encode(channel, change: change, recipe: recipe, textDirectory: text.path,
                                                  loopSegments: catalog.loopSegments, into: folder)
        } else {
            try DerivedFolder.ffmpeg(recipe.arguments(output: folder, textDirectory: text.path), channel: channel.number)
            if !(channel.subtitles ?? []).isEmpty {
                durations = try BroadcastSubtitles.add(channel, recipe: recipe, loopSegments: catalog.loopSegments, in: folder)
            }
        }
        // The logo, as the demo channels' are drawn.
        let logo = EncodeRecipe(channel: DemoChannel(number: channel.number, id: channel.id, name: channel.name, group: "",
                                                     colour: channel.colour, audio: []),
                                loopSeconds: catalog.loopSeconds, segmentSeconds: catalog.segmentSeconds, fontFile: font)
        try Data(logo.textFiles["initials.txt", default: ""].utf8).write(to: text.appendingPathComponent("initials.txt"))
        try DerivedFolder.ffmpeg(logo.logoArguments(output: folder.appendingPathComponent("logo.png").path, textDirectory: text.path),
                                 channel: channel.number)
        return try durations ?? DerivedFolder.segmentDurations(folder, expected: catalog.loopSegments)
    }
}

/// The broadcast loops' segments and logos, memory-mapped (as `EncodedLibrary`'s).
struct BroadcastSegments: Sendable {
    private let segments: [Int: [Data]]
    private let logos: [Int: Data]
    let entries: [BroadcastCache.Entry]

    init(entries: [BroadcastCache.Entry], root: URL) throws {
        var segments: [Int: [Data]] = [:], logos: [Int: Data] = [:]
        for entry in entries {
            let folder = root.appendingPathComponent(entry.folder)
            func load(_ name: String) throws -> Data {
                let url = folder.appendingPathComponent(name)
                do {
                    return try Data(contentsOf: url, options: .alwaysMapped)
                } catch {
                    throw OriginError.badCache(path: url.path, reason: "missing file (delete the cache folder to encode again)")
                }
            }
            segments[entry.number] = try entry.durations.indices.map { try load("\($0).ts") }
            logos[entry.number] = try load("logo.png")
        }
        self.segments = segments
        self.logos = logos
        self.entries = entries
    }

    func segment(channel: Int, loopIndex: Int) -> Data? {
        guard let list = segments[channel], list.indices.contains(loopIndex) else { return nil }
        return list[loopIndex]
    }

    func logo(channel: Int) -> Data? { logos[channel] }

    func durations(channel: Int) -> [Double]? { entries.first { $0.number == channel }?.durations }

    func sizes(channel: Int) -> [Int] { segments[channel]?.map(\.count) ?? [] }
}
