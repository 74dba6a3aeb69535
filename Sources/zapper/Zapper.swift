import ArgumentParser
import Foundation
import ZapperCore
import ZapperDisplay
import ZapperPlayer

/// zapper: the live TV appliance. Wiring only: the rules live in ZapperCore,
/// the devices in the backends, the pipeline in ZapperPlayer.
@main
struct Zapper: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "zapper",
        abstract: "Live TV on bare Linux: channels from an M3U Plus lineup.")

    enum DisplayChoice: String, ExpressibleByArgument, CaseIterable {
        case auto, drm, offscreen
    }

    @Option(help: "The lineup: an M3U Plus file.")
    var lineup: String

    @Option(help: "The channel number to start on (default: the first).")
    var channel: Int?

    @Option(help: "auto (KMS when a device opens, else offscreen), drm or offscreen.")
    var display: DisplayChoice = .auto

    @Option(help: "Size of the offscreen display, WIDTHxHEIGHT.")
    var size = "1920x1080"

    @Option(help: "ALSA PCM device.")
    var audioDevice = "default"

    @Option(help: "Write the event log (JSON lines) to this file.")
    var events: String?

    @Option(help: "Run an automation script (press, hold, wait, wait-event, snapshot, quit).")
    var script: String?

    @Flag(help: "Diagnostics: add a `frame` event per presented picture to the event log.")
    var traceFrames = false

    func run() throws {
        let text: String
        do {
            text = try String(contentsOf: URL(fileURLWithPath: lineup), encoding: .utf8)
        } catch {
            throw ValidationError("\(lineup): cannot read the lineup (\(error.localizedDescription))")
        }
        let parsed = M3UPlusParser.parse(text, source: lineup)
        for problem in parsed.problems {
            FileHandle.standardError.write(Data("zapper: \(problem)\n".utf8))
        }
        guard let first = parsed.channels.first else { throw ValidationError("\(lineup): no playable channel in the lineup") }
        let start: LineupChannel
        if let channel {
            guard let chosen = parsed.channel(number: channel) else { throw ValidationError("\(lineup): there is no channel \(channel)") }
            start = chosen
        } else {
            start = first
        }

        var options = Player.Options()
        let dimensions = size.lowercased().split(separator: "x").compactMap { Int($0) }
        guard dimensions.count == 2, dimensions.allSatisfy({ (16...8192).contains($0) && $0 % 2 == 0 }) else {
            throw ValidationError("--size \(size): expected WIDTHxHEIGHT with even numbers, e.g. 1920x1080")
        }
        options.width = dimensions[0]
        options.height = dimensions[1]
        options.audioDevice = audioDevice
        options.eventsPath = events
        options.traceFrames = traceFrames
        if let script {
            let scriptText: String
            do {
                scriptText = try String(contentsOf: URL(fileURLWithPath: script), encoding: .utf8)
            } catch {
                throw ValidationError("\(script): cannot read the script (\(error.localizedDescription))")
            }
            do {
                options.script = try ScriptParser.parse(scriptText, source: script)
            } catch {
                throw ValidationError("\(error)")
            }
        }

        // The KMS display comes with the display issue; until then only offscreen.
        switch display {
        case .drm:
            throw ValidationError("--display drm: the KMS display is not built yet; use --display offscreen")
        case .auto, .offscreen:
            let cards = KMSDevices.cardPaths()
            let why = cards.isEmpty ? "no KMS device" : "the KMS display is not built yet"
            FileHandle.standardError.write(Data("zapper: display offscreen \(options.width)x\(options.height) (\(display == .auto ? why : "asked for"))\n".utf8))
        }
        FileHandle.standardError.write(Data("zapper: \(parsed.channels.count) channels from \(lineup)\n".utf8))

        let player = try Player(options: options)
        let code = player.run(startChannel: start)
        if code != 0 { throw ExitCode(code) }
    }
}
