import Foundation
import ZapperCore

/// What the swipe-up panel shows: each tab's page, built from the lineup, the guide and the
/// playing channel's choices.
extension Player {
    static let openGuideLabel = "Open the full-screen guide (or press Guide)"

    /// What the panel shows this frame, nil when it is closed.
    func panelContent(at date: Date) -> PanelContent? {
        guard panel.isOpen else { return nil }
        let page: PanelContent.Page
        switch panel.row {
        case .channels: page = .channels(channelRows(at: date))
        case .info: page = .info(programmeInfo(at: date))
        case .audio: page = .choices(audioChoices())
        case .subtitles: page = .choices(subtitleChoices())
        case .picture:
            page = .choices(pictureChoices())
        case .guide:
            page = .choices([PanelChoice(label: Self.openGuideLabel, isCurrent: false)])
        case .phone:
            page = .phone(currentPhoneInvite())
        }
        return PanelContent(tabs: panel.tabs, selectedTab: panel.row, focusedItem: panel.focusedItem, page: page)
    }

    /// The Picture tab: how the picture fills the screen, then Deinterlace, then lip sync.
    private func pictureChoices() -> [PanelChoice] {
        PictureTabItem.all.map { item in
            switch item {
            case .mode(let mode): PanelChoice(label: mode.title, isCurrent: mode == screen.pictureMode)
            case .deinterlace(let mode): PanelChoice(label: "Deinterlace: \(mode.title)", isCurrent: mode == keeper.state.deinterlace)
            case .lipSyncEarlier: PanelChoice(label: "Lip sync: picture \(LipSync.step) ms earlier", detail: "now \(lipSync.words)", isCurrent: false)
            case .lipSyncLater: PanelChoice(label: "Lip sync: picture \(LipSync.step) ms later", detail: "now \(lipSync.words)", isCurrent: false)
            }
        }
    }

    /// The Phone tab's link, asked for again when 5 s old (the box's address may have changed).
    private func currentPhoneInvite() -> PanelPhoneInvite {
        let now = Int(clock.monotonic * 1000)
        if let phoneInvite, now - phoneInvite.asked < 5000 { return phoneInvite.invite }
        let invite = ports.phoneInvite?() ?? PanelPhoneInvite(link: nil, address: "", problem: "The HTTP API is off.")
        phoneInvite = (now, invite)
        return invite
    }

    /// The lineup grouped by `group-title` (groups in the order they first appear), each
    /// channel with the programme on now. Built again only when the playing channel, the
    /// minute or the logos change (not each frame: a lineup can have hundreds of channels).
    private func channelRows(at date: Date) -> [PanelChannelRow] {
        let key = ChannelRowsKey(playing: tuner.view.tuned, minute: Int(date.timeIntervalSince1970 / 60), logos: logos.arrived,
                                 favourites: favourites, recents: recents)
        if let cached = channelRowsCache, cached.key == key { return cached.rows }
        let rows = buildChannelRows(playing: key.playing, at: date)
        channelRowsCache = (key, rows)
        return rows
    }

    private func buildChannelRows(playing: Int?, at date: Date) -> [PanelChannelRow] {
        var rows: [PanelChannelRow] = []
        var group: String?? = .none
        for entry in panelOrder {
            let number = entry.number
            let channel = channels[number]
            if group != .some(entry.group) {
                group = .some(entry.group)
                rows.append(.group(entry.group ?? "Other"))
            }
            let now = guide?.lines(for: channel, at: date).now.map { "\($0.start)  \($0.title)" }
            rows.append(.channel(PanelChannelLine(channel: identity(of: number), now: now, isPlaying: number == playing)))
        }
        return rows
    }

    private func programmeInfo(at date: Date) -> PanelProgrammeInfo {
        let number = tuner.view.tuned ?? tuner.view.target
        let channel = channels[number]
        let name = "\(number)  \(channel?.name ?? "")"
        guard let programme = guide?.programme(for: channel, at: date) else {
            return PanelProgrammeInfo(channelName: name, title: "No programme information")
        }
        return PanelProgrammeInfo(channelName: name, title: programme.title, subtitle: programme.subTitle,
                                  description: programme.description, rating: programme.rating?.value,
                                  timeRange: GuideStore.timeRange(programme), progress: programme.progress(at: date))
    }

    struct ChannelRowsKey: Equatable {
        var playing: Int?
        var minute: Int
        var logos: Int
        var favourites: Favourites
        var recents: Recents
    }
}
