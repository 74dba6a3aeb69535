import Foundation
import ZapperCore

/// The frame loop of a box: ticks the player about 60 times a second on the real
/// clock, starting each drawing as late as still makes the next vblank
/// (`RepaintClock`), carries out the automation script and tells systemd it is alive.
extension Player {
    /// Runs until the script quits (exit code 0), a script step fails (1), a stop is
    /// requested (SIGTERM/SIGINT, 0), a reload is (`requestReload`, 0), or forever.
    public func run() -> Int32 {
        var script = ScriptRunner(lines: options.script, log: log)
        let tick = 1.0 / 60
        var next = clock.monotonic
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
                // Drawing the next frame starts as late as still makes the next vblank, so a key
                // that comes before then is on screen at that vblank (RepaintClock).
                repaint.drew(seconds: presented.queued - woke)
                if let flip = presented.flip {
                    repaint.flipped(at: flip)
                    let wall = clock.monotonic
                    if let start = repaint.nextDrawStart, start > wall { Thread.sleep(forTimeInterval: start - wall) }
                }
                next = clock.monotonic + tick / 2
                continue
            }
            next += tick
            let wall = clock.monotonic
            if next > wall {
                Thread.sleep(forTimeInterval: next - wall)
            } else {
                next = wall  // late: no catching up with a burst of ticks
            }
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
