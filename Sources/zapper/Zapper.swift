import ArgumentParser
import Foundation
import ZapperCore
import ZapperDisplay
import ZapperInput
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
    var lineup: String = ""

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

    @Option(help: "The programme guide (XMLTV file or http(s) URL; default: the lineup's url-tvg).")
    var guide: String?

    @Option(help: "A keymap file of `KEY_NAME action` lines over the defaults (see the README).")
    var keymap: String?

    @Option(help: "The KMS device for --display drm (default: the first card with a connected connector).")
    var drmDevice: String?

    @Option(help: "The connector for --display drm, e.g. HDMI-A-1 (default: the first connected).")
    var connector: String?

    @Option(help: "The mode for --display drm, WIDTHxHEIGHT[@HZ] (default: the connector's preferred).")
    var mode: String?

    @Flag(help: "Diagnostics: add a `frame` event per presented picture to the event log.")
    var traceFrames = false

    @Flag(help: "Diagnostics: add a `flip` event per presented frame (page-flip time, drawing cost) to the event log.")
    var traceFlips = false

    @Flag(help: "Print the default keymap (a valid --keymap file) and exit.")
    var printDefaultKeymap = false

    func validate() throws {
        if lineup.isEmpty && !printDefaultKeymap { throw ValidationError("Missing expected argument '--lineup <lineup>'") }
    }

    func run() throws {
        if printDefaultKeymap {
            print(Keymap.defaultsText, terminator: "")
            return
        }
        let text: String
        do {
            text = try String(contentsOf: URL(fileURLWithPath: lineup), encoding: .utf8)
        } catch {
            throw ValidationError("\(lineup): cannot read the lineup (\(error.localizedDescription))")
        }
        let parsed = M3UPlusParser.parse(text, source: lineup)
        for problem in parsed.problems {
            say("\(problem)")
        }
        guard let first = parsed.channels.first else { throw ValidationError("\(lineup): no playable channel in the lineup") }
        if let channel, parsed.channel(number: channel) == nil { throw ValidationError("\(lineup): there is no channel \(channel)") }

        var options = Player.Options()
        let dimensions = size.lowercased().split(separator: "x").compactMap { Int($0) }
        guard dimensions.count == 2, dimensions.allSatisfy({ (16...8192).contains($0) && $0 % 2 == 0 }) else {
            throw ValidationError("--size \(size): expected WIDTHxHEIGHT with even numbers, e.g. 1920x1080")
        }
        options.audioDevice = audioDevice
        options.eventsPath = events
        options.traceFrames = traceFrames
        options.traceFlips = traceFlips
        options.guideSource = guide
        if guide == nil, let listed = parsed.guideURL {
            // Only http and https leave a lineup: a lineup cannot point us at a local file.
            if case .success = MediaURLPolicy.check(listed.absoluteString) {
                options.guideSource = listed.absoluteString
            } else {
                say("\(lineup): url-tvg \(listed.absoluteString) ignored: only http and https may be fetched")
            }
        }
        if let script {
            options.script = try read(script, "script") { try ScriptParser.parse($0, source: script) }
        }
        if let keymap {
            options.keymap = try read(keymap, "keymap") { try Keymap.load($0, source: keymap) }
        }

        let output = try openDisplay(offscreenSize: (dimensions[0], dimensions[1]))
        say("\(parsed.channels.count) channels from \(lineup)")
        let player = try Player(lineup: parsed.channels, start: channel ?? first.number, output: output, options: options)
        Player.stopOnSignals()
        let input = try? InputSource(log: { say($0) }, onKey: player.keySink)
        let code = player.run()
        input?.stop()
        if let kms = output as? KMSDisplay { kms.restore() }
        if code != 0 { throw ExitCode(code) }
    }

    /// KMS when asked for, or when `auto` finds a device; otherwise the offscreen display. Says which.
    /// The KMS display follows VT switches (Ctrl+Alt+Fn: it stops presenting while another VT
    /// has the screen, and modesets and redraws on the way back) and display hotplug by itself,
    /// from the frame loop's calls.
    private func openDisplay(offscreenSize: (Int, Int)) throws -> FrameOutput {
        if display != .offscreen {
            do {
                var kms = KMSDisplay.Options(device: drmDevice, connector: connector)
                if let mode { kms.mode = try ModeRequest.parse(mode) }
                let output = try KMSDisplay(options: kms) { say($0) }
                return output
            } catch {
                // One line and a non-zero exit (a ValidationError would add the usage text).
                if display == .drm {
                    say("--display drm: \(error)")
                    throw ExitCode(1)
                }
                say("display offscreen \(offscreenSize.0)x\(offscreenSize.1) (no KMS display: \(error))")
                return OffscreenDisplay(width: offscreenSize.0, height: offscreenSize.1)
            }
        }
        say("display offscreen \(offscreenSize.0)x\(offscreenSize.1) (asked for)")
        return OffscreenDisplay(width: offscreenSize.0, height: offscreenSize.1)
    }

    private func read<T>(_ path: String, _ what: String, _ parse: (String) throws -> T) throws -> T {
        let text: String
        do {
            text = try String(contentsOf: URL(fileURLWithPath: path), encoding: .utf8)
        } catch {
            throw ValidationError("\(path): cannot read the \(what) (\(error.localizedDescription))")
        }
        do {
            return try parse(text)
        } catch {
            throw ValidationError("\(error)")
        }
    }
}

private func say(_ line: String) {
    FileHandle.standardError.write(Data("zapper: \(line)\n".utf8))
}
