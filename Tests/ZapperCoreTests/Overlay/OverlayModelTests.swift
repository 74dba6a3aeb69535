import Testing
@testable import ZapperCore

/// What the overlay puts on screen as the tuner's view changes (pure: no display).
@Suite struct OverlayModelTests {
    private let identity: (Int) -> ChannelIdentity = { ChannelIdentity(number: $0, name: "Channel \($0)") }
    private let programmes: (Int) -> OverlayModel.Programmes = { _ in (nil, nil, nil) }

    private func kinds(_ layers: [OverlayLayer]) -> [String] {
        layers.map { layer in
            switch layer {
            case .banner: "banner"
            case .hint: "hint"
            case .volume: "volume"
            case .logoBug: "bug"
            case .interstitial: "card"
            case .offline: "offline"
            case .panel: "panel"
            case .subtitles: "subtitles"
            default: "other"
            }
        }
    }

    /// The "swipe up for more" hint and the banner both live at the bottom of the safe area:
    /// the hint waits for the banner to be gone, then shows.
    @Test func theHintWaitsForTheBanner() {
        var model = OverlayModel()
        let extras = OverlayModel.Extras(hint: "Swipe up for more")
        let withBanner = TunerView(target: 1, card: nil, digits: nil, banner: TunerBanner(channel: 1, until: 4_000), tuned: 1)
        for now in stride(from: 0, through: 3_900, by: 100) {
            let shown = kinds(model.layers(withBanner, now: now, identity: identity, programmes: programmes, extras: extras))
            #expect(shown.contains("banner") && !shown.contains("hint"), "at \(now) ms: \(shown)")
        }
        let afterBanner = TunerView(target: 1, card: nil, digits: nil, banner: nil, tuned: 1)
        var hintAt: Int?
        for now in stride(from: 4_000, through: 5_000, by: 20) {
            let shown = kinds(model.layers(afterBanner, now: now, identity: identity, programmes: programmes, extras: extras))
            #expect(!(shown.contains("banner") && shown.contains("hint")), "at \(now) ms: \(shown)")
            if hintAt == nil, shown.contains("hint") { hintAt = now }
        }
        #expect(hintAt != nil, "the hint never showed after the banner")
    }

    /// The offline badge shows with whatever else is up (it has a corner to itself), under the
    /// panel, and fades out when the copies no longer stand in.
    @Test func theOfflineBadgeStaysUpUnderThePanelUntilBackOnline() {
        var model = OverlayModel()
        let playing = TunerView(target: 1, card: nil, digits: nil, banner: TunerBanner(channel: 1, until: 4_000), tuned: 1)
        let panel = PanelContent(selectedTab: .info, page: .info(PanelProgrammeInfo(channelName: "Channel 1")))
        let offline = OverlayModel.Extras(offline: true)
        let withPanel = OverlayModel.Extras(panel: panel, offline: true)
        #expect(kinds(model.layers(playing, now: 0, identity: identity, programmes: programmes, extras: offline)) == ["banner", "offline"])
        let shown = kinds(model.layers(playing, now: 100, identity: identity, programmes: programmes, extras: withPanel))
        #expect(shown.firstIndex(of: "offline")! < shown.firstIndex(of: "panel")!, "\(shown)")
        // Back online: it fades out within its 180 ms, then is gone.
        let back = OverlayModel.Extras()
        #expect(kinds(model.layers(playing, now: 200, identity: identity, programmes: programmes, extras: back)).contains("offline"))
        #expect(!kinds(model.layers(playing, now: 500, identity: identity, programmes: programmes, extras: back)).contains("offline"))
    }

    /// Subtitles give way to the panel (it covers the lower third) and come back, fading in,
    /// when it closes.
    @Test func subtitlesWaitForThePanelToClose() {
        var model = OverlayModel()
        let playing = TunerView(target: 1, card: nil, digits: nil, banner: nil, tuned: 1)
        let panel = PanelContent(selectedTab: .subtitles, page: .info(PanelProgrammeInfo(channelName: "Channel 1")))
        let underPanel = OverlayModel.Extras(panel: panel, subtitles: ["English (en)"])
        for now in stride(from: 0, through: 1_000, by: 100) {
            let shown = kinds(model.layers(playing, now: now, identity: identity, programmes: programmes, extras: underPanel))
            #expect(!shown.contains("subtitles"), "at \(now) ms: \(shown)")
        }
        let closed = OverlayModel.Extras(subtitles: ["English (en)"])
        _ = model.layers(playing, now: 2_000, identity: identity, programmes: programmes, extras: closed)
        let shown = kinds(model.layers(playing, now: 2_500, identity: identity, programmes: programmes, extras: closed))
        #expect(shown.contains("subtitles") && !shown.contains("panel"), "\(shown)")
    }

    /// The crash-loop breaker's note goes on the loading card, in place of its "next" row.
    @Test func theCardCarriesTheCrashLoopNote() throws {
        var model = OverlayModel()
        let note = "Channel 2 was skipped: it stopped Zapper 3 times"
        let loading = TunerView(target: 1, card: TunerCard(channel: 1, state: .loading), digits: nil, banner: nil, tuned: nil)
        let layers = model.layers(loading, now: 0, identity: identity, programmes: programmes,
                                  extras: OverlayModel.Extras(cardNote: note))
        let card = try #require(layers.compactMap { layer -> InterstitialCard? in
            if case .interstitial(let card, _) = layer { return card }
            return nil
        }.first)
        #expect(card.note == note && !card.isFailed)
    }

    /// While a channel fails over, its loading card says which source it tries (in place of "next").
    @Test func theCardSaysWhichSourceItTries() throws {
        var model = OverlayModel()
        let loading = TunerView(target: 1, card: TunerCard(channel: 1, state: .loading, trying: SourceTry(source: 2, count: 3)),
                                digits: nil, banner: nil, tuned: nil)
        let layers = model.layers(loading, now: 0, identity: identity, programmes: programmes, extras: OverlayModel.Extras())
        let card = try #require(layers.compactMap { layer -> InterstitialCard? in
            if case .interstitial(let card, _) = layer { return card }
            return nil
        }.first)
        #expect(card.note == "Trying source 2 of 3" && !card.isFailed)
    }
}
