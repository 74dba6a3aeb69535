import Foundation

/// `/ch/N/fmp4/…`: the fMP4 form of FragmentedMP4's channel — its master
/// playlist, media playlists with EXT-X-MAP, the initialization sections
/// and the `.m4s` segments, on the same live timeline as the MPEG-TS form.
/// Under `/ch/N/aes/fmp4/…` the segments are AES-128 encrypted as the MPEG-TS
/// ones are (the EXT-X-MAP comes before any EXT-X-KEY: its section is clear).
extension OriginRouter {
    func fragmented(_ channel: DemoChannel, _ rest: [String], encrypted: Bool) -> (OriginReply, Resource)? {
        guard let renditions = library.entry(channel: channel.number)?.fragmented else { return nil }
        let playlistType = "application/vnd.apple.mpegurl"
        if rest == ["master.m3u8"] {
            return (OriginReply(status: 200, contentType: playlistType,
                                body: Data(playlists.master(channel: channel, library: library, fragmented: true).utf8)), .master)
        }
        guard rest.count == 2, let durations = renditions[rest[0]] else { return nil }
        let rendition = rest[0]
        switch rest[1] {
        case "index.m3u8":
            let text = playlists.media(durations: durations, segmentExtension: "m4s",
                                       at: faults.playlistTime(channel: channel.number, now: clock()),
                                       encryptedChannel: encrypted ? channel.number : nil, initSection: FragmentedMP4.initFile)
            return (OriginReply(status: 200, contentType: playlistType, body: Data(text.utf8)), .playlist)
        case FragmentedMP4.initFile:
            guard let data = library.fragmentedInit(channel: channel.number, rendition: rendition) else { return nil }
            return (OriginReply(status: 200, contentType: "video/mp4", body: data), .segment)
        case let file where file.hasSuffix(".m4s"):
            guard let sequence = Int64(file.dropLast(4)) else { return nil }
            guard playlists.timeline.isServable(sequence, at: clock()) else {
                return (.text(404, "segment \(sequence) is not in the live window"), .segment)
            }
            guard let data = library.fragmentedSegment(channel: channel.number, rendition: rendition,
                                                       loopIndex: playlists.timeline.loopIndex(of: sequence)) else { return nil }
            guard encrypted else { return (OriginReply(status: 200, contentType: "video/iso.segment", body: data), .segment) }
            guard let sealed = try? SegmentEncryption.encrypt(data, channel: channel.number, sequence: sequence) else {
                return (.text(500, "encrypting segment \(sequence) failed"), .segment)
            }
            return (OriginReply(status: 200, contentType: "video/iso.segment", body: sealed), .segment)
        default:
            return nil
        }
    }
}
