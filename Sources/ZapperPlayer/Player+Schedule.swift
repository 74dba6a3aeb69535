import Foundation
import ZapperCore

/// Day-parting and standby: a `StandbyLayer` (its rules are there) whose effects are carried
/// out here. Standby stops the channel and blanks the screen.
extension Player {
    var inStandby: Bool { standbyLayer.inStandby }

    /// The panel (and the guide) may open: not while the schedule says no, nor in standby.
    var panelAllowed: Bool { standbyLayer.panelAllowed }

    func scheduleTick(now: Int, date: Date) {
        carry(standbyLayer.tick(now: now, in: standbyContext(date)), now: now)
    }

    /// A key in standby wakes the box (and the TV) until the next edge of the schedule.
    func standbyTakes(now: Int) -> Bool {
        guard let effects = standbyLayer.take(.ok, now: now, in: standbyContext(clock.date)) else { return false }
        carry(effects, now: now)
        return true
    }

    private func carry(_ effects: [StandbyLayer.Effect], now: Int) {
        for effect in effects {
            switch effect {
            case let .schedule(entry, began): log.emit(.schedule(entry: entry, began: began))
            case let .standby(on, reason, touchTV): standby(on, reason: reason, touchTV: touchTV, now: now)
            case let .sound(volume, muted): announce(audio.setLevel(volume: volume, muted: muted))
            case .tune(let channel): apply(tuner.handle(.select(channel), now: now))
            }
        }
    }

    private func standbyContext(_ date: Date) -> StandbyLayer.Context {
        StandbyLayer.Context(date: date, target: tuner.view.target) { self.channels[$0] != nil }
    }

    /// Into standby (the channel stopped, the screen black, the TV told at an edge) or out of it.
    private func standby(_ on: Bool, reason: String, touchTV: Bool, now: Int) {
        log.emit(.standby(on: on, reason: reason))
        if on {
            closeGuide(.inactive)
            carry(panel.close(.inactive), now: now)
            apply(tuner.handle(.sleep, now: now))
            stopPlayback()
            for neighbour in warm.values { neighbour.stop(keepingSound: false) }
            warm.removeAll()
        } else {
            apply(tuner.handle(.wake, now: now))
        }
        guard touchTV, let power = ports.tvPower else { return }
        do {
            if on { try power.standby() } else { try power.wake() }
        } catch {
            Self.say("cec: \(error)")
        }
    }

    /// The black screen of standby (presented once: nothing changes after).
    func presentStandby() -> Presented? {
        do {
            guard try screen.compose([.blank]) else { return nil }
        } catch {
            Self.say("display: \(error)")
            return nil
        }
        let queued = clock.monotonic
        return Presented(queued: queued, flip: (try? screen.output.waitForFlip(timeoutMilliseconds: 100)) ?? nil)
    }
}
