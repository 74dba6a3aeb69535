import ZapperCore

/// The visual watchdog: each new picture of a playing channel is fingerprinted under the overlay
/// (`Screen.videoSignature`, a sparse grid: cheap on the frame loop) and handed to `PictureWatch`.
/// Pictures that keep coming but show the same thing, or black, for its time are the viewer's
/// failure: logged (`frozen`, `black`), and the tuner tunes the channel again as after a stall
/// (a second time soon after waits with the error card, which says why).
extension Player {
    func watchPicture(of playback: any ChannelStream, now: Int) {
        guard pictureWatch != nil, let signature = screen.videoSignature,
              let verdict = pictureWatch?.presented(signature, at: now) else { return }
        let channel = playback.channel.number
        let failure: PlaybackFailure
        switch verdict {
        case .frozen(let milliseconds):
            let seconds = milliseconds / 1000
            log.emit(.frozen(channel: channel, seconds: seconds))
            failure = PlaybackFailure(.frozenPicture, "the picture has not changed for \(seconds) s; tuning it again")
        case .black(let milliseconds):
            let seconds = milliseconds / 1000
            log.emit(.black(channel: channel, seconds: seconds))
            failure = PlaybackFailure(.blackPicture, "the picture has been black for \(seconds) s; tuning it again")
        }
        fail(serial: playback.serial, channel: channel, failure, now: now)
    }
}
