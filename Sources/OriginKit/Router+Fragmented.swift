import Foundation

/// `/ch/N/fmp4/…`: the fMP4 form of FragmentedMP4's channel — its master
/// playlist, media playlists with EXT-X-MAP, the initialization sections
/// and the `.m4s` segments, on the same live timeline as the MPEG-TS form.
extension OriginRouter {
    func fragmented(_ channel: DemoChannel, _ rest: [String]) -> (OriginReply, Resource)? {
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
                                       initSection: FragmentedMP4.initFile)
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
            return (OriginReply(status: 200, contentType: "video/iso.segment", body: data), .segment)
        default:
            return nil
        }
    }
}
