import Foundation
import ZapperCore

/// The swipe-up panel (issue 6): opened by `panel`/`menu`/`up`, navigated by
/// PanelNavigator's rules, its content built from the lineup, the guide and
/// the playing channel's choices. The video keeps playing under it.
extension Player {
    /// Gives an action to the panel; true when the panel took it (opening it counts).
    func panelTakes(_ action: Action, now: Int) -> Bool {
        guard panel.isOpen else {
            let opens = action == .panel || action == .menu || action == .up
            guard opens, panelAllowed, tuner.view.digits == nil else { return false }
            refreshPanelChoices()
            panel.open(now: now)
            notices.panelOpened()
            log.emit(.panelOpened(row: panel.row.rawValue))
            return true
        }
        if case .digit(let digit) = action, panel.row == .channels, panel.focusedItem != nil {
            jumpInList(digit, now: now)
            return true
        }
        switch panel.handle(action, now: now) {
        case .unhandled:
            return false
        case .none, .moved:
            return true
        case .closed:
            log.emit(.panelClosed(reason: .key))
            return true
        case .activate(let row, let index):
            activate(row, index, now: now)
            if !panel.isOpen { log.emit(.panelClosed(reason: .chosen)) }
            return true
        }
    }

    /// Closes the panel after its inactivity time.
    func panelTick(now: Int) {
        guard panel.isOpen, panel.tick(now: now) == .closed else { return }
        log.emit(.panelClosed(reason: .inactive))
    }

    static let openGuideLabel = "Open the full-screen guide (or press Guide)"

    /// Each row's items and current choice, as the navigator counts them.
    func refreshPanelChoices() {
        let playing = tuner.view.tuned ?? tuner.view.target
        // The playing channel's place in its own group (the last of its entries), not under Favourites or Recent.
        panel.update(itemCount: panelOrder.count, selected: panelOrder.lastIndex { $0.number == playing }, for: .channels)
        let audio = audioChoices()
        panel.update(itemCount: audio.count, selected: audio.firstIndex(where: \.isCurrent), for: .audio)
        let subtitles = subtitleChoices()
        panel.update(itemCount: subtitles.count, selected: subtitles.firstIndex(where: \.isCurrent), for: .subtitles)
        panel.update(itemCount: pictureChoices().count, selected: PictureMode.allCases.firstIndex(of: screen.pictureMode),
                     for: .picture)
        panel.update(itemCount: 1, selected: 0, for: .guide)
    }

    private func activate(_ row: PanelRow, _ index: Int, now: Int) {
        switch row {
        case .channels:
            guard panelOrder.indices.contains(index) else { return }
            apply(tuner.handle(.select(panelOrder[index].number), now: now))
        case .picture:
            if PictureMode.allCases.indices.contains(index) {
                let mode = PictureMode.allCases[index]
                screen.pictureMode = mode
                keeper.change { $0.picture = mode }
                log.emit(.picture(mode: mode.rawValue))
            } else if DeinterlaceMode.allCases.indices.contains(index - PictureMode.allCases.count) {
                let mode = DeinterlaceMode.allCases[index - PictureMode.allCases.count]
                ports.channels.setDeinterlace(mode)
                keeper.change { $0.deinterlace = mode }
                log.emit(.deinterlace(mode: mode.rawValue))
            } else {
                // The lip sync items: the picture a step earlier, or a step later.
                let earlier = index == PictureMode.allCases.count + DeinterlaceMode.allCases.count
                let moved = lipSync.stepped(by: earlier ? 1 : -1)
                keeper.change { $0.lipSyncMilliseconds = moved.milliseconds }
                log.emit(.lipSync(milliseconds: moved.milliseconds))
            }
        case .audio:
            chooseAudio(index)
        case .subtitles:
            chooseSubtitles(index)
        case .guide:
            openGuide(now: now)
            return
        case .info, .phone:
            break
        }
        refreshPanelChoices()
    }

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
        PictureMode.allCases.map { PanelChoice(label: $0.title, isCurrent: $0 == screen.pictureMode) }
            + DeinterlaceMode.allCases.map { PanelChoice(label: "Deinterlace: \($0.title)", isCurrent: $0 == keeper.state.deinterlace) }
            + [PanelChoice(label: "Lip sync: picture \(LipSync.step) ms earlier", detail: "now \(lipSync.words)", isCurrent: false),
               PanelChoice(label: "Lip sync: picture \(LipSync.step) ms later", detail: "now \(lipSync.words)", isCurrent: false)]
    }

    /// The Picture tab's lip sync, else the configuration's.
    var lipSync: LipSync { keeper.state.lipSyncMilliseconds.map { LipSync(milliseconds: $0) } ?? options.config.lipSync }

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

    /// A channel of the list, under its group's heading.
    struct PanelEntry: Equatable {
        var number: Int
        var group: String?
    }

    static let favouritesHeading = "Favourites"
    static let recentsHeading = "Recent"

    /// The order of the channel list: the favourites first (in lineup order, under their own
    /// heading, and in their groups too), the last ten watched (most recent first), then grouped
    /// by `group-title`, lineup order within a group (a channel in several, `News;Sports`, is in each).
    static func panelOrder(_ lineup: [LineupChannel], favourites: Favourites, recents: Recents) -> [PanelEntry] {
        var groups: [String?] = []
        var seen = Set<String?>()
        var members: [String?: [Int]] = [:]
        for channel in lineup {
            let own: [String?] = channel.groups.isEmpty ? [nil] : channel.groups
            for group in own {
                if seen.insert(group).inserted { groups.append(group) }
                members[group, default: []].append(channel.number)
            }
        }
        let favourite = favourites.numbers(in: lineup).map { PanelEntry(number: $0, group: favouritesHeading) }
        let recent = recents.numbers(in: lineup).map { PanelEntry(number: $0, group: recentsHeading) }
        return favourite + recent + groups.flatMap { group in (members[group] ?? []).map { PanelEntry(number: $0, group: group) } }
    }
}
