import ArgumentParser
import Foundation
import ZapperCore
import ZapperMedia

/// zapper: the live TV appliance. Wiring only: the rules live in ZapperCore,
/// the devices in the backends.
@main
struct Zapper: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "zapper",
        abstract: "Live TV on bare Linux: channels from an M3U Plus lineup, flipped with a remote.")

    @Option(help: "The lineup: an M3U Plus file.")
    var lineup: String

    @Option(help: "The channel number to start on.")
    var channel: Int?

    func run() throws {
        let url = URL(fileURLWithPath: lineup)
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw ValidationError("\(lineup): cannot read the lineup (\(error.localizedDescription))")
        }
        let parsed = M3UPlusParser.parse(text, source: lineup)
        for problem in parsed.problems {
            FileHandle.standardError.write(Data("zapper: \(problem)\n".utf8))
        }
        guard !parsed.channels.isEmpty else {
            throw ValidationError("\(lineup): no playable channel in the lineup")
        }
        if let channel, parsed.channel(number: channel) == nil {
            throw ValidationError("\(lineup): there is no channel \(channel)")
        }
        print("zapper: \(parsed.channels.count) channels from \(lineup) (FFmpeg \(FFmpegLibrary.version))")
        if let guide = parsed.guideURL { print("zapper: guide \(guide.absoluteString)") }
        for entry in parsed.channels {
            let marker = entry.number == (channel ?? parsed.channels[0].number) ? "▶" : " "
            let group = entry.group.map { " [\($0)]" } ?? ""
            print("\(marker) \(entry.number)  \(entry.name)\(group)  \(entry.url.absoluteString)")
        }
        print("zapper: the player itself arrives with the playback issue; until then open a URL above in ffplay or mpv.")
    }
}
