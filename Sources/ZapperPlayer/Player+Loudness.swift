import ZapperCore

/// Even loudness: each channel's sound is levelled from the gain it last needed, and the
/// gain it ends with is remembered (in the state too) for the next time it plays.
extension Player {
    /// The leveller a channel starts with (nil: even loudness is off). A channel not heard
    /// before starts at the gain the channels heard lately needed, typically the provider's.
    func leveller(for channel: LineupChannel) -> Leveller? {
        let settings = options.config.loudness
        guard settings.enabled else { return nil }
        let start = levels.gain(for: channel.stateKey) ?? levels.typicalGain ?? 0
        return Leveller(sampleRate: AudioPump.sampleRate, target: settings.target, startGainDB: start)
    }

    /// Keeps the playing channel's gain (before its sound stops).
    func rememberLevel() {
        guard let channel = playback?.channel, let gain = audio.levelGainDB else { return }
        levels.remember(gain, for: channel.stateKey)
        let levels = levels
        keeper.change { $0.levels = levels }
    }
}
