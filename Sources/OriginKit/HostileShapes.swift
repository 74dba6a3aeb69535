import Foundation

/// `/hostile/…`: what an attacker's server sends, for the hardening tests. Each
/// shape is a real channel's live stream (channel 1's 240p) with one value
/// poisoned, so that only that value can make the player fail:
///
/// | path | what is wrong |
/// |---|---|
/// | `/hostile/lineup.m3u` | a lineup of every shape below, channel 1 good, with hostile lines of its own |
/// | `/hostile/playlist/KIND/index.m3u8` | a media playlist with one tag poisoned (`kinds`) |
/// | `/hostile/master/index.m3u8` | a master whose variant claims a 4294967295x4294967295 picture and an Int64 bandwidth |
/// | `/hostile/endless/index.m3u8` | good playlists whose segments never end (`Delivery.endless`) |
/// | `/hostile/subtitles/master.m3u8` | channel 1 with a subtitle rendition whose cues and X-TIMESTAMP-MAP overflow |
/// | `/hostile/logo.png` | a PNG header claiming 0xFFFFFFFF x 0xFFFFFFFF pixels |
/// | `/hostile/guide.xml` | an XMLTV guide with megabyte texts, times and rating lists |
enum HostileShapes {
    static let prefix = "hostile"
    /// The good channel the shapes are made of, and its rendition.
    static let channel = 1
    static let rendition = "240p"

    /// Media playlist poisons: the tag line that replaces (or joins) the good playlist's.
    static let kinds: [(name: String, poison: Poison)] = [
        ("target-inf", .replace("#EXT-X-TARGETDURATION:", with: "#EXT-X-TARGETDURATION:inf")),
        ("target-huge", .replace("#EXT-X-TARGETDURATION:", with: "#EXT-X-TARGETDURATION:1e300")),
        ("sequence-max", .replace("#EXT-X-MEDIA-SEQUENCE:", with: "#EXT-X-MEDIA-SEQUENCE:9223372036854775807")),
        ("discontinuity-max", .replace("#EXT-X-DISCONTINUITY-SEQUENCE:", with: "#EXT-X-DISCONTINUITY-SEQUENCE:9223372036854775807")),
        ("byterange-overflow", .beforeFirstSegment("#EXT-X-BYTERANGE:9223372036854775807@9223372036854775807")),
        ("extinf-huge", .replace("#EXTINF:", with: "#EXTINF:1e300,")),
        ("start-huge", .beforeFirstSegment("#EXT-X-START:TIME-OFFSET=1e308")),
    ]

    enum Poison {
        case replace(String, with: String)
        case beforeFirstSegment(String)

        func apply(to playlist: String) -> String {
            var lines = playlist.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            switch self {
            case .replace(let prefix, let line):
                guard let index = lines.firstIndex(where: { $0.hasPrefix(prefix) }) else { return playlist }
                lines[index] = line
            case .beforeFirstSegment(let line):
                guard let index = lines.firstIndex(where: { $0.hasPrefix("#EXTINF:") }) else { return playlist }
                lines.insert(line, at: index)
            }
            return lines.joined(separator: "\n")
        }
    }

    /// The good playlist's segment lines made absolute paths to the good channel's segments.
    static func pointingAtChannel(_ playlist: String) -> String {
        playlist.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasSuffix(".ts") && !line.hasPrefix("#") ? "/ch/\(channel)/\(rendition)/\(line)" : String(line)
        }.joined(separator: "\n")
    }

    static let masterPlaylist = """
        #EXTM3U
        #EXT-X-STREAM-INF:BANDWIDTH=9223372036854775807,RESOLUTION=4294967295x4294967295,FRAME-RATE=1e300
        /ch/\(channel)/\(rendition)/index.m3u8

        """

    /// A PNG signature and IHDR claiming 0xFFFFFFFF x 0xFFFFFFFF pixels, then nothing.
    static let logo: Data = {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
        bytes += Array("IHDR".utf8) + [UInt8](repeating: 0xFF, count: 8) + [8, 6, 0, 0, 0] + [0, 0, 0, 0]
        return Data(bytes)
    }()

    static let subtitlesMaster = """
        #EXTM3U
        #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",LANGUAGE="en",NAME="English",DEFAULT=YES,AUTOSELECT=YES,URI="subtitles.m3u8"
        #EXT-X-STREAM-INF:BANDWIDTH=400000,RESOLUTION=426x240,SUBTITLES="subs"
        /ch/\(channel)/\(rendition)/index.m3u8

        """

    /// WebVTT segments whose times overflow Int and whose map overflows Int64.
    static let subtitleSegment = """
        WEBVTT
        X-TIMESTAMP-MAP=MPEGTS:9223372036854775807,LOCAL:9999999999999999:00:00.000

        9999999999999999:00:00.000 --> 9999999999999999:00:01.000
        overflow

        """

    static let guide: String = {
        let huge = String(repeating: "A", count: 2_000_000)
        let ratings = (0..<1_000).map { "<rating system=\"X\"><value>\($0)</value></rating>" }.joined()
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <tv>
            <channel id="hostile"><display-name>\(huge)</display-name></channel>
            <programme channel="hostile" start="99999999999999999999" stop="-9223372036854775808"><title>x</title></programme>
            <programme channel="hostile" start="20260101000000 +9999" stop="20260101010000"><title>\(huge)</title></programme>
            <programme channel="hostile" start="20260101000000 +0000" stop="20990101000000 +0000"><title>t</title><desc>\(huge)</desc>\(ratings)</programme>
            </tv>

            """
    }()

    /// The lineup: channel 1 good, then one channel per shape, logos and guide hostile too,
    /// and lines a hostile lineup has (numbers that overflow, a local file, a huge name).
    static func lineup(baseURL: String) -> String {
        var lines = ["#EXTM3U url-tvg=\"\(baseURL)/\(prefix)/guide.xml\""]
        func add(_ number: Int, _ name: String, _ path: String) {
            lines.append("#EXTINF:-1 tvg-id=\"hostile\" tvg-chno=\"\(number)\" tvg-logo=\"\(baseURL)/\(prefix)/logo.png\",\(name)")
            lines.append("\(baseURL)\(path)")
        }
        add(1, "Good One", "/ch/\(channel)/master.m3u8")
        for (index, kind) in kinds.enumerated() { add(2 + index, kind.name, "/\(prefix)/playlist/\(kind.name)/index.m3u8") }
        add(2 + kinds.count, "master", "/\(prefix)/master/index.m3u8")
        add(3 + kinds.count, "endless", "/\(prefix)/endless/index.m3u8")
        add(4 + kinds.count, "subtitles", "/\(prefix)/subtitles/master.m3u8")
        lines += ["#EXTINF:-1 tvg-chno=\"99999999999999999999\" tvg-shift=\"1e308\",Overflowing number", "\(baseURL)/ch/2/master.m3u8",
                  "#EXTINF:-1 tvg-chno=\"50\",Local file", "file:///etc/passwd",
                  "#EXTINF:-1 tvg-chno=\"51\",\(String(repeating: "N", count: 100_000))", "\(baseURL)/ch/3/master.m3u8",
                  "#EXTINF:9223372036854775807999 tvg-chno=\"-5\",Negative", "\(baseURL)/ch/4/master.m3u8"]
        return lines.joined(separator: "\n") + "\n"
    }
}
