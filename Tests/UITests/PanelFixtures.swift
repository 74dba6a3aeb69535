import ZapperCore
import ZapperUI

/// Panel, hint, locked card and subtitle content shared by the tests.
enum PanelFixtures {
    static let channelRows: [PanelChannelRow] = [
        .group("Films"),
        .channel(PanelChannelLine(channel: Fixtures.nova, now: "20:00  The Long Way Home", isPlaying: true)),
        .channel(PanelChannelLine(channel: ChannelIdentity(number: 43, name: "Cinema Classics"),
                                  now: "19:30  A Night at the Harbour (1954)")),
        .group("News"),
        .channel(PanelChannelLine(channel: Fixtures.harbour, now: "20:00  Harbour Tonight")),
        .channel(PanelChannelLine(channel: ChannelIdentity(number: 8, name: "World Report"))),
        .group("Kids"),
        .channel(PanelChannelLine(channel: ChannelIdentity(number: 61, name: "Toon Town"), now: "20:15  Captain Comet")),
        .channel(PanelChannelLine(channel: ChannelIdentity(number: 62, name: "Discovery Kids"),
                                  now: "20:00  How Things Grow: a very long programme title that must be cut short")),
    ]

    /// The channels page, the focus on "Cinema Classics" (item 1), below the playing channel; more below.
    static let channels = PanelContent(selectedTab: .channels, focusedItem: 1, page: .channels(channelRows))

    /// A long lineup: a heading every fifth row, the third channel playing.
    static func longList(channels: Int = 40) -> [PanelChannelRow] {
        var rows: [PanelChannelRow] = []
        for number in 1...channels {
            if number % 4 == 1 { rows.append(.group("Group \(number / 4 + 1)")) }
            rows.append(.channel(PanelChannelLine(channel: ChannelIdentity(number: number, name: "Channel \(number)"),
                                                  now: "20:00  Programme \(number)", isPlaying: number == 3)))
        }
        return rows
    }

    static let info = PanelContent(selectedTab: .info, page: .info(PanelProgrammeInfo(
        channelName: "42  Nova Cinema", title: "The Long Way Home", subtitle: "Part 2: The Crossing",
        description: "Two brothers cross a frozen country to bring their father's boat home before the thaw. "
            + "On the way they meet a travelling circus, a stubborn customs officer and a storm that lasts three days, "
            + "and learn more about their father than either of them wanted to know. Then the ice begins to crack.",
        rating: "16", timeRange: "20:00 – 21:45", progress: 0.37)))

    static let audio = PanelContent(selectedTab: .audio, focusedItem: 1, page: .choices([
        PanelChoice(label: "English", detail: "Stereo", isCurrent: true),
        PanelChoice(label: "Deutsch", detail: "Stereo"),
        PanelChoice(label: "English", detail: "Audio description"),
    ]))

    static let subtitles = PanelContent(selectedTab: .subtitles, focusedItem: 2, page: .choices([
        PanelChoice(label: "Off", isCurrent: true),
        PanelChoice(label: "English", detail: "en"),
        PanelChoice(label: "Français", detail: "fr"),
    ]))

    static let picture = PanelContent(selectedTab: .picture, page: .choices(PictureMode.allCases.map {
        PanelChoice(label: $0.title, detail: pictureDetail[$0], isCurrent: $0 == .fill)
    }))

    static let pictureDetail: [PictureMode: String] = [
        .fit: "The whole picture, bars if needed", .fill: "Fill the screen, edges cropped",
        .zoom: "Fill, then zoom past burnt-in bars",
    ]

    static let locked = LockedCard(channel: Fixtures.nova, reason: "Rated 18", pinLength: 4, typedCount: 2,
                                   message: "Wrong PIN – 3 tries left", isWarning: true)

    static let subtitleLines = [
        "Where were you when the ice began to crack?",
        "On the boat, with the engine running and the lights off, waiting for you to call me back.",
    ]

    static let hint = "Swipe up for more"

    /// The Phone tab (a box with the HTTP API): the code for a phone's camera.
    static let phoneLink = "http://192.168.1.20:9464/remote#token=s3cret%2Bkey-7f2c"
    static let phone = PanelContent(tabs: PanelRow.standard + [.phone], selectedTab: .phone, page: .phone(
        PanelPhoneInvite(link: phoneLink, address: "http://192.168.1.20:9464/remote")))
    /// The API on loopback only: no code, the reason instead.
    static let phoneLoopback = PanelContent(tabs: PanelRow.standard + [.phone], selectedTab: .phone, page: .phone(
        PanelPhoneInvite(link: nil, address: "http://127.0.0.1:9464/remote",
                         problem: "The HTTP API listens on this box only. For a phone, set [metrics] listen to the box's network address or to 0.0.0.0.")))

    /// Every page, with its golden's name.
    static let pages: [(String, PanelContent)] = [
        ("channels", channels), ("info", info), ("audio", audio), ("subtitles", subtitles), ("picture", picture),
    ]
}
