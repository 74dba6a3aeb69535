import Foundation
import Synchronization
import ZapperCore
import ZapperDisplay
import ZapperEngine
@testable import ZapperPlayer

/// The real `Player` in-process, on a virtual clock: the offscreen display and the
/// real compositor (FFmpeg's scaler, Cairo's overlay), scripted channels, a sound
/// device that records, a state store that keeps the last save. Each tick moves
/// the clock a sixtieth of a second; nothing waits on the wall clock, so a
/// behaviour test takes milliseconds per second of the box's time and never
/// depends on how busy the machine is.
final class PlayerHarness {
    let clock = VirtualClock()
    let source: ScriptedChannelSource
    let display: OffscreenDisplay
    let sink: RecordingSink
    let states = KeptStates()
    let player: Player
    var log: EventLog { player.log }
    static let tick = 1000.0 / 60

    /// Channels 1…`scripts.count` in order, named "Channel N", starting at `start`; a channel
    /// with backups has them as its further sources, and `tvg-id` "chN".
    init(_ scripts: [ChannelScript], start: Int = 1, sound: Bool = true, guide: (any GuideLoader)? = nil, tvPower: (any TVPower)? = nil,
         meter: (any PlaybackMeter)? = nil, screen: (width: Int, height: Int) = (320, 180),
         configure: (inout Player.Options) -> Void = { _ in }) throws {
        let lineup = scripts.enumerated().map { index, script in
            LineupChannel(number: index + 1, name: "Channel \(index + 1)", url: ChannelScript.url(channel: index + 1),
                          guideID: script.backups.isEmpty ? nil : "ch\(index + 1)", rating: script.rating,
                          backups: script.backups.indices.map { LineupSource(url: ChannelScript.url(channel: index + 1, source: $0 + 1)) })
        }
        source = ScriptedChannelSource(scripts: Dictionary(uniqueKeysWithValues: scripts.enumerated().map { ($0.offset + 1, $0.element) }),
                                       clock: clock)
        display = OffscreenDisplay(width: screen.width, height: screen.height, clock: clock)
        let sink = RecordingSink(clock: clock)
        self.sink = sink
        var options = Player.Options()
        // The scripted channels' sound is checked sample for sample: levelled only where a test asks.
        options.config.loudness.enabled = false
        options.openSound = sound ? { @Sendable () throws -> any PCMSink in sink } : nil
        // The harness looks back over every event of the run (`events(_:)`), by position.
        options.keptEvents = 1 << 16
        configure(&options)
        let ports = PlayerPorts(channels: source, screen: ScreenCompositor(output: display), logos: NoLogos(), guide: guide,
                                verifyPIN: { pin, hash in pin == hash }, stateStore: states, clock: clock, audioThread: false, tvPower: tvPower,
                                meter: meter)
        player = try Player(lineup: lineup, start: start, ports: ports, options: options)
    }

    /// Moves the clock on by `milliseconds`, a tick at a time.
    func run(milliseconds: Double) {
        var left = milliseconds
        while left > 0 {
            step()
            left -= Self.tick
        }
    }

    private func step() {
        clock.advance(milliseconds: Self.tick)
        source.poll()
        _ = player.tick()
    }

    /// Runs until an event of that name comes after `mark` (default: from now), at most
    /// `within` milliseconds of the box's time; the event, or nil.
    @discardableResult
    func run(until name: EventName, after mark: Int? = nil, within milliseconds: Double = 10_000) -> Event? {
        let mark = mark ?? log.count
        var left = milliseconds
        while left > 0 {
            if let event = log.first(name.rawValue, after: mark) { return event }
            step()
            left -= Self.tick
        }
        return log.first(name.rawValue, after: mark)
    }

    /// The mark just after `event` (for `run(until:after:)`: what came after it).
    func mark(after event: Event) -> Int {
        (log.events.lastIndex(of: event) ?? log.events.count - 1) + 1
    }

    /// Presses and releases a key (by its evdev name, as the keymap knows it).
    /// Holds `key` down for `milliseconds` of the clock, then lets it go.
    func hold(_ key: String, milliseconds: Double) {
        player.keySink(KeyEvent(name: key, kind: .press, device: "test"))
        run(milliseconds: milliseconds)
        player.keySink(KeyEvent(name: key, kind: .release, device: "test"))
        step()
    }

    func press(_ key: String) {
        player.keySink(KeyEvent(name: key, kind: .press, device: "test"))
        player.keySink(KeyEvent(name: key, kind: .release, device: "test"))
        step()
    }

    /// The colour at the middle of the screen.
    var centreColour: (red: Int, green: Int, blue: Int) { colour(x: display.width / 2, y: display.height / 2) }

    /// The colour shown at a point of the screen.
    func colour(x: Int, y: Int) -> (red: Int, green: Int, blue: Int) {
        let pixels = display.shownPixels
        let offset = y * display.stride + x * 4
        return (Int(pixels[offset + 2]), Int(pixels[offset + 1]), Int(pixels[offset]))
    }

    /// Whether the middle of the screen (or the point `at`) shows `colour`.
    func shows(_ colour: (red: Int, green: Int, blue: Int), at point: (x: Int, y: Int)? = nil, tolerance: Int = 24) -> Bool {
        let shown = point.map { self.colour(x: $0.x, y: $0.y) } ?? centreColour
        return abs(shown.red - colour.red) <= tolerance && abs(shown.green - colour.green) <= tolerance
            && abs(shown.blue - colour.blue) <= tolerance
    }

    /// Whether the middle of the screen (or the point `at`) is dark (the sum of its channels under `limit`).
    func isDark(at point: (x: Int, y: Int)? = nil, limit: Int = 120) -> Bool {
        let shown = point.map { colour(x: $0.x, y: $0.y) } ?? centreColour
        return shown.red + shown.green + shown.blue < limit
    }

    /// The names of the events so far, in order.
    var eventNames: [String] { log.events.map(\.name) }

    /// Events of one name so far.
    func events(_ name: EventName) -> [Event] { log.events.filter { $0.name == name.rawValue } }
}

/// An event's field by name.
extension Event {
    subscript(_ field: String) -> EventValue? { fields.first { $0.0 == field }?.1 }
}

/// The last state saved, as the state file would hold it.
final class KeptStates: StateSaving, @unchecked Sendable {
    private let lock = NSLock()
    private var saved: ZapperState?
    func save(_ state: ZapperState) throws { lock.withLock { saved = state } }
    var last: ZapperState? { lock.withLock { saved } }
}

/// No channel has a logo.
struct NoLogos: ByteLoader {
    func bytes(_ url: URL, limit: Int) async throws -> [UInt8] { throw PlayerError("no logos here") }
}
