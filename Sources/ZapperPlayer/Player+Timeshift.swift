import Foundation
import ZapperCore

/// Time-shift's effects carried out (`TransportLayer`): the picture kept and the sound faded on
/// a pause while the channel goes on being fetched, both played on from there, the channel tuned
/// again at its live edge, and each change told as a `timeshift` event.
extension Player {
    /// Offers a time-shift key to the transport layer; true when it took it.
    func transportTakes(_ action: Action, now: Int) -> Bool {
        guard let effects = transport.take(action, now: now, in: transportContext) else { return false }
        carryOut(effects)
        return true
    }

    /// What the transport layer must know: time-shift on, and the position heard on a channel
    /// that plays (nothing while a tune loads, a channel is locked or the box is in standby).
    private var transportContext: TransportLayer.Context {
        let playing = playback.map { !awaitingFirstPicture && tuner.view.tuned == $0.channel.number && tuner.view.card == nil } ?? false
        return TransportLayer.Context(enabled: options.config.timeshift.enabled && !parental.isLocked && !inStandby,
                                      heard: playing ? audio.clock : nil)
    }

    func carryOut(_ effects: [TransportLayer.Effect]) {
        for effect in effects {
            switch effect {
            case .freeze:
                if let budget = options.config.timeshift.budget { playback?.keepBehindLive(budget) }
                audio.pause()
            case .resume:
                audio.resume()
                // The pictures were held, not late: the watches count from now.
                lastPictureAt = log.now
                pictureWatch?.reset()
            case .rejoin:
                apply(tuner.handle(.rejoinLive, now: log.now))
            case let .told(state, behind):
                guard let channel = playback?.channel.number ?? tuner.view.tuned else { continue }
                let position = Int((clock.date.timeIntervalSince1970 * 1000).rounded()) - behind
                log.emit(.timeshift(channel: channel, state: state, behindMilliseconds: behind, positionMilliseconds: position))
            }
        }
    }
}
