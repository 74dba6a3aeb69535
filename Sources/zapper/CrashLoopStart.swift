import Foundation
import ZapperCore
import ZapperPlayer
import ZapperSettings

/// The start channel, after the crash-loop breaker has had its say: a run that
/// ended uncleanly is noted, a channel that keeps ending runs is skipped and
/// not kept warm, and a loop that goes on anyway is slowed down.
struct CrashLoopStart {
    var channel: Int
    var state: ZapperState
    var notice: Player.CrashNotice?

    init(preferred: Int, defaultChannel: Int?, lineup: [LineupChannel], state restored: ZapperState,
         store: StateStore?, say: (String) -> Void) {
        var state = restored
        let verdict = CrashLoopBreaker.start(&state, now: Int(Date().timeIntervalSince1970))
        let channel = CrashLoopBreaker.startChannel(preferred: preferred, defaultChannel: defaultChannel, lineup: lineup,
                                                offenders: verdict.offenders)
        if restored.running {
            say("the last run ended uncleanly (\(verdict.recentExits) in the last \(CrashLoopBreaker.windowSeconds / 60) minutes)")
        }
        let skipped = lineup.filter { verdict.offenders[$0.stateKey] != nil }
        if channel != preferred, let offender = lineup.first(where: { $0.number == preferred }) {
            let exits = verdict.offenders[offender.stateKey] ?? 0
            let note = CrashLoopBreaker.note(skipped: offender, exits: exits)
            say("\(note); starting on channel \(channel) instead")
            notice = Player.CrashNotice(skipped: preferred, exits: exits, note: note,
                                        quarantined: Set(skipped.map(\.number)))
        } else if !skipped.isEmpty {
            // Not the one to start on, but not to be kept warm either.
            notice = Player.CrashNotice(skipped: nil, exits: verdict.recentExits, note: nil,
                                        quarantined: Set(skipped.map(\.number)))
        }
        // On disk before anything is tuned: if this run dies too, the next start knows.
        state.tuning = lineup.first { $0.number == channel }?.stateKey
        do {
            try store?.save(state)
        } catch {
            say("state not saved: \(error)")
        }
        self.state = state
        self.channel = channel
        if verdict.delaySeconds > 0 {
            let reason = "\(verdict.recentExits) unclean exits in the last \(CrashLoopBreaker.windowSeconds / 60) minutes"
            say("\(reason): starting in \(verdict.delaySeconds) s")
            SystemdNotify().wait(seconds: verdict.delaySeconds, status: "Starting in \(verdict.delaySeconds) s after \(reason)")
        }
    }
}
