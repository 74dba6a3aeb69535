extension Tuner {
    /// What the screen shows now.
    public var view: TunerView {
        var card: TunerCard?
        if let missing {
            card = TunerCard(channel: missing.number, state: .error(PlaybackFailure(.noSuchChannel(missing.number), "no channel \(missing.number) in the lineup"), retryAt: nil))
        } else if interstitial != nil {
            let trying = active.flatMap { $0.tried > 1 ? SourceTry(source: $0.source + 1, count: sourceCount(of: $0.channel)) : nil }
            card = TunerCard(channel: target, state: .loading, trying: trying)
        } else if let failure {
            card = TunerCard(channel: target, state: .error(failure.failure, retryAt: failure.retryAt))
        }
        return TunerView(target: target, card: card, digits: entry.isEmpty ? nil : entry.digits, banner: banner, tuned: tuned)
    }
}
