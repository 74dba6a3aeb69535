import Foundation
import ZapperCore

/// Radio channels: sound and no picture (the lineup's `radio="true"`, or a stream found to
/// carry sound only). Their tune is presented by their first sound, not a picture; the screen
/// goes black under the radio card (`RadioScreen`); the picture watches leave them alone, and
/// the sound is watched instead: silence for `SoundWatch`'s time tunes them again.
extension Player {
    func isRadio(_ playback: any ChannelStream) -> Bool { playback.channel.isRadio || playback.isSoundOnly }

    /// Each tick: a radio tune's first sound presents it; a playing radio channel's sound is watched.
    func radioTick(now: Int) {
        guard let playback, isRadio(playback) else {
            soundWatch.reset()
            return
        }
        if awaitingFirstPicture {
            guard let start = playback.soundStart else { return }
            screen.clearPicture()
            firstPictureSize = (0, 0)
            soundWatch.reset()
            lastPictureAt = now
            audio.begin(playback, at: start, leveller: leveller(for: playback.channel))
            apply(tuner.handle(.tuneSucceeded(serial: playback.serial), now: now))
            return
        }
        guard transport.state != .paused, let silent = soundWatch.update(starved: audio.isStarved, now: now) else { return }
        fail(serial: playback.serial, channel: playback.channel.number,
             PlaybackFailure(.noSound, "no sound for \(silent / 1000) s; tuning it again"), now: now)
    }

    /// The radio card while a radio channel plays, nil otherwise.
    func radioScreen(at date: Date, now: Int) -> RadioScreen? {
        guard let playback, isRadio(playback), !awaitingFirstPicture, tuner.view.tuned == playback.channel.number else { return nil }
        let programmes = guide?.lines(for: playback.channel, at: date)
        return RadioScreen(channel: identity(of: playback.channel.number), now: programmes?.now, next: programmes?.next, at: now)
    }
}
