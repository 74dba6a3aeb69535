import Foundation
import ZapperCore

/// Day-parting: the `[[schedule]]` entries looked at once a second. What applies at start is
/// applied at once (a channel, the sound, the panel, standby: the screen blank), but the TV's
/// power is touched only at an entry's edge (a hotel box that restarts at night stays quiet).
/// Standby stops the channel and blanks the screen; a key ends it until the next edge.
extension Player {
    func scheduleTick(now: Int, date: Date) {
        guard now >= scheduleCheckDue, schedule != nil else { return }
        scheduleCheckDue = now + 1000
        guard let change = schedule?.look(at: date) else { return }
        for index in change.ended { log.emit(.schedule(entry: index + 1, began: false)) }
        for index in change.began { log.emit(.schedule(entry: index + 1, began: true)) }
        let began = change.began.compactMap { options.config.schedule.indices.contains($0) ? options.config.schedule[$0] : nil }
        scheduledPanel = change.state.panel
        if change.state.standby != inStandby {
            setStandby(change.state.standby, reason: "schedule", touchTV: !change.atStart, now: now)
        }
        // What began sets the channel and the sound (what ended leaves them as they are).
        if let level = began.last(where: { $0.volume != nil || $0.muted != nil }) {
            announce(audio.setLevel(volume: level.volume, muted: level.muted))
        }
        if !inStandby, let channel = began.last(where: { $0.channel != nil })?.channel, channels[channel] != nil,
           tuner.view.target != channel {
            apply(tuner.handle(.select(channel), now: now))
        }
    }

    /// Into standby (the channel stopped, the screen black, the TV told at an edge) or out of it.
    func setStandby(_ on: Bool, reason: String, touchTV: Bool, now: Int) {
        guard on != inStandby else { return }
        inStandby = on
        log.emit(.standby(on: on, reason: reason))
        if on {
            closeGuide(.inactive)
            if panel.isOpen {
                panel.close()
                log.emit(.panelClosed(reason: .inactive))
            }
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

    /// A key in standby wakes the box (and the TV) until the next edge of the schedule.
    func standbyTakes(now: Int) -> Bool {
        guard inStandby else { return false }
        setStandby(false, reason: "key", touchTV: true, now: now)
        return true
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

    /// The panel (and the guide) may open: not while the schedule says no, nor in standby.
    var panelAllowed: Bool {
        !inStandby && (scheduledPanel ?? !options.config.signage.panelDisabled)
    }
}
