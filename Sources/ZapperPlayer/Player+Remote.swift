import Foundation
import Synchronization
import ZapperCore

/// Commands from a fleet's tools (MQTT, the HTTP API), and the status they watch.
extension Player {
    /// Where a fleet's commands go (from any thread); `reply`, if given, is called on the
    /// loop's thread once the command was carried out or refused.
    public var remoteSink: @Sendable (RemoteCommand, (@Sendable (RemoteReply) -> Void)?) -> Void {
        { [inbox] command, reply in inbox.post(.command(command, reply: reply)) }
    }

    /// Calls `watcher` with the status now (once the loop runs) and at each change, on the loop's thread;
    /// it must only take note and return.
    public func watchStatus(_ watcher: @escaping @Sendable (PlayerStatus) -> Void) {
        status.watchers.withLock { $0.append(watcher) }
    }

    /// The status as last published (nil before the loop's first tick).
    public var currentStatus: PlayerStatus? { status.last.withLock { $0 } }

    /// Reads `currentStatus` from any thread.
    public var statusReader: @Sendable () -> PlayerStatus? { { [status] in status.last.withLock { $0 } } }

    /// Tells when the programme guide was last loaded (nil: none configured, or none loaded yet); from any thread.
    public var guideLoadedAt: @Sendable () -> Date? { { [guide] in guide?.loadedAt } }

    func carryOut(_ command: RemoteCommand, now: Int) -> RemoteReply {
        switch command {
        case .tune(let number):
            guard channels[number] != nil else { return .refused("no channel \(number) in the lineup") }
            apply(tuner.handle(.select(number), now: now, pressedAt: now))
        case .next, .previous:
            tuner.flipRing = options.config.flipWithin.ring(from: tuner.view.target, lineup: lineup, favourites: favourites,
                                                             radio: options.config.flipRadio)
            apply(tuner.handle(.flip(delta: command == .next ? 1 : -1, held: false), now: now, pressedAt: now))
        case .key(let name):
            guard keys.keymap[name] != nil || name.hasPrefix("SWIPE_") && Keymap.isKeyName(name) else {
                return .refused("the keymap has no key \(name)")
            }
            for kind in [KeyEvent.Kind.press, .release] {
                handle(.key(KeyEvent(name: name, kind: kind, device: "remote"), arrived: now), now: now)
            }
        case .volume(let level):
            guard (0...100).contains(level) else { return .refused("volume \(level) is not within 0…100") }
            announce(audio.setLevel(volume: level, muted: false))
        case .mute(let muted):
            announce(audio.setLevel(muted: muted))
        case .screenshot(let path):
            do {
                try snapshot(path)
            } catch {
                return .refused("\(error)")
            }
        }
        return .done
    }

    /// Publishes the status when it changed (each tick; the programme is looked up on a change of channel or minute).
    func publishStatus(now: Int) {
        let target = tuner.view.target
        var health: PlayerStatus.Health
        switch tuner.view.card?.state {
        case .loading: health = .loading
        case .error(let failure, _): health = .failed(failure.name)
        case nil: health = tuner.view.tuned == nil ? .loading : .playing
        }
        if inStandby { health = .standby }
        let minute = Self.wallMilliseconds(clock) / 60_000
        if status.programmeFor?.channel != target || status.programmeFor?.minute != minute {
            status.programme = guide?.programme(for: channels[target], at: clock.date)?.title
            status.programmeFor = (target, minute)
        }
        let level = audio.level
        let next = PlayerStatus(channel: target, channelName: channels[target]?.name ?? "", programme: status.programme,
                                volume: level.volume, muted: level.muted, health: health)
        guard status.last.withLock({ last in
            defer { last = next }
            return last != next
        }) else { return }
        for watcher in status.watchers.withLock({ $0 }) { watcher(next) }
    }
}

/// The status last published and who watches it.
final class StatusBoard: Sendable {
    let last = Mutex<PlayerStatus?>(nil)
    let watchers = Mutex<[@Sendable (PlayerStatus) -> Void]>([])
    /// Loop-only: the programme last looked up, and for which channel and minute.
    nonisolated(unsafe) var programme: String?
    nonisolated(unsafe) var programmeFor: (channel: Int, minute: Int)?
}
