/// What the overlay shows, from the tuner's view: the card while a channel
/// loads (or why it failed), the banner after a zap, the logo bug of the
/// channel on screen, the digits being typed; each animated in and out.
public struct OverlayModel {
    private var card = Presence<InterstitialCard>()
    private var banner = Presence<ChannelBanner>()
    private var bug = Presence<ChannelIdentity>()
    private var digits = Presence<DigitEntry>()
    private var panel = Presence<PanelContent>()
    private var hint = Presence<String>()
    private var subtitles = Presence<[String]>()
    private var volume = Presence<VolumeLevel>()
    private var offline = Presence<Bool>()
    private var radio = Presence<RadioScreen>()
    private var bitmapSubtitles = Presence<SubtitleBitmap>()

    public init() {}

    public typealias Programmes = (now: ProgrammeLine?, next: ProgrammeLine?, progress: Double?)

    /// What the panel, the parental lock and the subtitles want on screen this frame.
    public struct Extras {
        public var panel: PanelContent?
        public var hint: String?
        /// The full-screen guide (over everything but the sound level).
        public var guide: GuideGridContent? = nil
        /// A line for the loading card instead of its "next" row (the crash-loop breaker's note).
        public var cardNote: String? = nil
        public var locked: LockedCard?
        public var subtitles: [String] = []
        /// The sound level, for a few seconds after a volume or mute key.
        public var volume: VolumeLevel?
        /// Copies of earlier fetches stand in for the lineup, the guide or logos.
        public var offline = false
        /// The radio channel playing, in place of a picture.
        public var radio: RadioScreen?
        /// The chosen DVB subtitles' bitmap on screen now.
        public var bitmapSubtitles: SubtitleBitmap?

        public init(panel: PanelContent? = nil, hint: String? = nil, guide: GuideGridContent? = nil, cardNote: String? = nil,
                    locked: LockedCard? = nil, subtitles: [String] = [], volume: VolumeLevel? = nil, offline: Bool = false,
                    radio: RadioScreen? = nil) {
            self.radio = radio
            self.panel = panel
            self.hint = hint
            self.guide = guide
            self.cardNote = cardNote
            self.locked = locked
            self.subtitles = subtitles
            self.volume = volume
            self.offline = offline
        }
    }

    /// Bottom to top: a radio channel's card (in place of the picture), the locked card (it hides the picture), subtitles, the logo bug,
    /// banner, interstitial, digits, the hint, the offline badge, the panel, and the volume over everything
    /// (a volume key works with the panel up, and the level is shown over it).
    public mutating func layers(_ view: TunerView, now: Int, identity: (Int) -> ChannelIdentity,
                         programmes: (Int) -> Programmes, extras: Extras) -> [OverlayLayer] {
        let wantedCard = view.card.map { card -> InterstitialCard in
            let status: InterstitialCard.Status
            switch card.state {
            case .loading:
                status = .loading(spinnerPhase: Double(now % 100_000) / 1000)
            case .error(let failure, let retryAt):
                status = .failed(reason: failure.words, retryInSeconds: retryAt.map { max(0, ($0 - now + 999) / 1000) })
            }
            let guide = programmes(card.channel)
            var shown = InterstitialCard(channel: identity(card.channel), now: guide.now, next: guide.next, status: status)
            shown.note = card.trying?.words ?? extras.cardNote
            return shown
        }
        // One thing at a time in the lower third: the banner waits for the card to be gone.
        var layers: [OverlayLayer] = []
        if let (content, appearance) = radio.update(extras.radio, now: now) { layers.append(.radio(content, appearance: appearance)) }
        if let locked = extras.locked { layers.append(.locked(locked, appearance: 1)) }
        let panelUp = extras.panel != nil
        let shownCard = card.update(wantedCard, now: now)
        let wantedBanner = shownCard == nil && !panelUp ? view.banner.map { banner in
            let guide = programmes(banner.channel)
            return ChannelBanner(channel: identity(banner.channel), now: guide.now, progress: guide.progress, next: guide.next)
        } : nil
        let shownBanner = banner.update(wantedBanner, now: now)
        // A radio channel's card shows its logo already.
        let wantedBug = shownCard == nil && shownBanner == nil && !panelUp && extras.radio == nil ? view.tuned.map(identity) : nil
        // Subtitles give way to whatever else uses the lower third.
        let wantedSubtitles = extras.subtitles.isEmpty || shownCard != nil || shownBanner != nil || panelUp || extras.locked != nil
            ? nil : extras.subtitles
        if let (content, appearance) = subtitles.update(wantedSubtitles, now: now) { layers.append(.subtitles(content, appearance: appearance)) }
        let wantedBitmap = shownCard != nil || shownBanner != nil || panelUp || extras.locked != nil ? nil : extras.bitmapSubtitles
        if let (content, appearance) = bitmapSubtitles.update(wantedBitmap, now: now) { layers.append(.bitmapSubtitles(content, appearance: appearance)) }
        let wantedDigits = view.digits.map { typed in
            DigitEntry(digits: typed.compactMap { $0.wholeNumberValue }, slots: max(3, typed.count))
        }
        if let (content, appearance) = bug.update(wantedBug, now: now) { layers.append(.logoBug(content, appearance: appearance)) }
        if let (content, appearance) = shownBanner { layers.append(.banner(content, appearance: appearance)) }
        if let (content, appearance) = shownCard { layers.append(.interstitial(content, appearance: appearance)) }
        if let (content, appearance) = digits.update(wantedDigits, now: now) { layers.append(.digits(content, appearance: appearance)) }
        // The hint has the bottom of the screen to itself too: after the banner.
        let wantedHint = shownCard == nil && shownBanner == nil && !panelUp ? extras.hint : nil
        if let (content, appearance) = hint.update(wantedHint, now: now) { layers.append(.hint(content, appearance: appearance)) }
        if let (_, appearance) = offline.update(extras.offline ? true : nil, now: now) { layers.append(.offline(appearance: appearance)) }
        if let (content, appearance) = panel.update(extras.panel, now: now) { layers.append(.panel(content, appearance: appearance)) }
        // The guide covers the screen, dimmed: what would be under it (the logo bug, a banner,
        // subtitles) is left out, and the guide is drawn without clearing anything first.
        if let guide = extras.guide { layers = [.guide(guide, appearance: 1)] }
        if let (content, appearance) = volume.update(extras.volume, now: now) { layers.append(.volume(content, appearance: appearance)) }
        return layers
    }
}
