import ZapperCore

/// What the overlay shows, from the tuner's view: the card while a channel
/// loads (or why it failed), the banner after a zap, the logo bug of the
/// channel on screen, the digits being typed; each animated in and out.
struct OverlayModel {
    private var card = Presence<InterstitialCard>()
    private var banner = Presence<ChannelBanner>()
    private var bug = Presence<ChannelIdentity>()
    private var digits = Presence<DigitEntry>()

    typealias Programmes = (now: ProgrammeLine?, next: ProgrammeLine?, progress: Double?)

    mutating func layers(_ view: TunerView, now: Int, identity: (Int) -> ChannelIdentity,
                         programmes: (Int) -> Programmes) -> [OverlayLayer] {
        let wantedCard = view.card.map { card -> InterstitialCard in
            let status: InterstitialCard.Status
            switch card.state {
            case .loading:
                status = .loading(spinnerPhase: Double(now % 100_000) / 1000)
            case .error(let reason, let retryAt):
                status = .failed(reason: reason, retryInSeconds: retryAt.map { max(0, ($0 - now + 999) / 1000) })
            }
            let guide = programmes(card.channel)
            return InterstitialCard(channel: identity(card.channel), now: guide.now, next: guide.next, status: status)
        }
        // One thing at a time in the lower third: the banner waits for the card to be gone.
        var layers: [OverlayLayer] = []
        let shownCard = card.update(wantedCard, now: now)
        let wantedBanner = shownCard == nil ? view.banner.map { banner in
            let guide = programmes(banner.channel)
            return ChannelBanner(channel: identity(banner.channel), now: guide.now, progress: guide.progress, next: guide.next)
        } : nil
        let shownBanner = banner.update(wantedBanner, now: now)
        let wantedBug = shownCard == nil && shownBanner == nil ? view.tuned.map(identity) : nil
        let wantedDigits = view.digits.map { typed in
            DigitEntry(digits: typed.compactMap { $0.wholeNumberValue }, slots: max(3, typed.count))
        }
        if let (content, appearance) = bug.update(wantedBug, now: now) { layers.append(.logoBug(content, appearance: appearance)) }
        if let (content, appearance) = shownBanner { layers.append(.banner(content, appearance: appearance)) }
        if let (content, appearance) = shownCard { layers.append(.interstitial(content, appearance: appearance)) }
        if let (content, appearance) = digits.update(wantedDigits, now: now) { layers.append(.digits(content, appearance: appearance)) }
        return layers
    }
}
