import Foundation
import ZapperCore

/// The frame loop of a box: ticks the player about 60 times a second on the real
/// clock, starting each drawing as late as still makes the next vblank
/// (`RepaintClock`), carries out the automation script and tells systemd it is alive.
/// Between turns it sleeps until the next draw start, but a key (anything posted to the
/// inbox) or a script's step falling due wakes it at once: the key is drawn then and is
/// on screen at the next vblank when the drawing fits before it.
extension Player {
    /// Runs until the script quits (exit code 0), a script step fails (1), a stop is
    /// requested (SIGTERM/SIGINT, 0), a reload is (`requestReload`, 0), or forever.
    public func run() -> Int32 {
        var script = ScriptRunner(lines: options.script, log: log)
        let tick = 1.0 / 60
        var repaint = RepaintClock()
        let systemd = SystemdNotify()
        defer { if Self.reloadRequested { systemd.reloading() } else { systemd.stopping() } }
        while !Self.stopRequested.load(ordering: .relaxed) && !Self.reloadRequested {
            let woke = clock.monotonic
            switch script.step(snapshot: { try self.snapshot($0) }, key: { self.scriptKey($0, $1, arrived: $2) }) {
            case .running: break
            case .quit:
                stopAll()
                return 0
            case .failed(let reason):
                Self.say("script: \(reason)")
                stopAll()
                return 1
            }
            systemd.tick(now: log.now, view: tuner.view)
            if let presented = self.tick() {
                repaint.drew(seconds: presented.queued - woke)
                if let flip = presented.flip {
                    repaint.flipped(at: flip)
                    learntRefreshPeriod = repaint.period
                }
            }
            // Until the next draw start, at most a tick away (the period is learnt from flips,
            // and a 30 fps picture flips every other vblank), or sooner: the script's next
            // step, or a post to the inbox.
            let now = clock.monotonic
            var wake = min(repaint.drawStart(after: now) ?? now + tick, now + tick)
            if let due = script.nextDue { wake = min(wake, now + Double(due - log.now) / 1000) }
            inbox.sleep(until: wake - now + Double(DispatchTime.now().uptimeNanoseconds) / 1e9)
        }
        Self.say(Self.reloadRequested ? "stopping to start again (reload)" : "stopping")
        stopAll()
        return 0
    }

    /// Ends `run` at its next tick as a stop does (state saved, devices handed back), for the
    /// caller to start zapper anew (a fleet's `reload`: lineup and configuration read again).
    public static func requestReload() { reload.store(true, ordering: .relaxed) }

    /// Whether `run` ended (or is ending) for a reload.
    public static var reloadRequested: Bool { reload.load(ordering: .relaxed) }
}
