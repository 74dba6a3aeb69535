import Testing
import ZapperCore

/// Hotplug rules on fake KMS descriptions: the set-top box's HDMI-A-1 and DSI-1.
@Suite struct ConnectorDecisionTests {
    static let device = "/dev/dri/card0"

    /// The set-top box with HDMI-A-1 and DSI-1 each connected or not; DSI-1 offers one panel mode.
    static func box(hdmi: Bool, dsi: Bool = false, hdmiModes: [KMSMode]? = nil) -> KMSDescription {
        var description = KMSFixtures.settop
        description.connectors[0].connected = dsi
        description.connectors[0].modes = dsi ? [KMSMode(width: 800, height: 480, refreshMilliHz: 60000, preferred: true)] : []
        description.connectors[1].connected = hdmi
        if let hdmiModes { description.connectors[1].modes = hdmiModes }
        if !hdmi { description.connectors[1].modes = [] }  // the kernel forgets the EDID's modes
        return description
    }

    static func decide(_ description: KMSDescription, current: ModeChoice, presenting: Bool = true,
                       connector: String? = nil, mode: ModeRequest? = nil) -> ConnectorAction {
        ConnectorDecision.decide(current: current, presenting: presenting, description: description, device: device,
                                 connector: connector, mode: mode)
    }

    static var hdmi1080: ModeChoice { try! ModeChoice.choose(in: box(hdmi: true), device: device) }

    @Test func nothingChangedKeepsTheChoice() {
        #expect(Self.decide(Self.box(hdmi: true), current: Self.hdmi1080) == .keep(Self.hdmi1080))
    }

    @Test func unpluggedIsLostOnceThenWaiting() {
        #expect(Self.decide(Self.box(hdmi: false), current: Self.hdmi1080) == .lost(connector: "HDMI-A-1"))
        #expect(Self.decide(Self.box(hdmi: false), current: Self.hdmi1080, presenting: false) == .stillWaiting)
    }

    @Test func pluggedBackIsModesetAgainInTheSameMode() {
        // The display came back: even with the same mode a modeset is needed (we stopped presenting).
        #expect(Self.decide(Self.box(hdmi: true), current: Self.hdmi1080, presenting: false) == .modeset(Self.hdmi1080, note: nil))
    }

    @Test func theSameTVKeepsTheModeInUseOverItsPreferredOne() throws {
        let hd720 = try ModeChoice.choose(in: Self.box(hdmi: true), device: Self.device,
                                          mode: ModeRequest(width: 1280, height: 720))
        // Chosen at start with --mode, later not configured (nil): a re-plug keeps 1280x720.
        #expect(Self.decide(Self.box(hdmi: true), current: hd720, presenting: false) == .modeset(hd720, note: nil))
    }

    @Test func anotherTVOnTheSameConnectorGetsItsPreferredMode() {
        let tv = [KMSMode(width: 3840, height: 2160, refreshMilliHz: 60000, preferred: true),
                  KMSMode(width: 1280, height: 720, refreshMilliHz: 50000)]
        let action = Self.decide(Self.box(hdmi: true, hdmiModes: tv), current: Self.hdmi1080)
        guard case .modeset(let choice, nil) = action else { Issue.record("got \(action)"); return }
        #expect(choice.connector.name == "HDMI-A-1" && choice.mode.width == 3840)
    }

    @Test func anotherConnectorPluggedInDoesNotStealTheScreen() {
        #expect(Self.decide(Self.box(hdmi: true, dsi: true), current: Self.hdmi1080) == .keep(Self.hdmi1080))
    }

    @Test func whenOursIsGoneAnotherConnectedOneTakesOver() {
        let action = Self.decide(Self.box(hdmi: false, dsi: true), current: Self.hdmi1080)
        guard case .modeset(let choice, nil) = action else { Issue.record("got \(action)"); return }
        #expect(choice.connector.name == "DSI-1" && choice.mode == KMSMode(width: 800, height: 480, refreshMilliHz: 60000, preferred: true))
    }

    @Test func aNamedConnectorIsTheOnlyOneUsed() {
        #expect(Self.decide(Self.box(hdmi: false, dsi: true), current: Self.hdmi1080, connector: "hdmi-a-1")
                == .lost(connector: "HDMI-A-1"))
        #expect(Self.decide(Self.box(hdmi: true, dsi: true), current: Self.hdmi1080, presenting: false, connector: "HDMI-A-1")
                == .modeset(Self.hdmi1080, note: nil))
    }

    @Test func connectedWithoutModesCountsAsGone() {
        var description = Self.box(hdmi: true)
        description.connectors[1].modes = []
        #expect(Self.decide(description, current: Self.hdmi1080) == .lost(connector: "HDMI-A-1"))
    }

    @Test func aConfiguredModeTheNewTVLacksFallsBackToItsPreferredAndSaysSo() {
        let tv = [KMSMode(width: 1366, height: 768, refreshMilliHz: 60000, preferred: true)]
        let action = Self.decide(Self.box(hdmi: true, hdmiModes: tv), current: Self.hdmi1080, presenting: false,
                                 mode: ModeRequest(width: 1920, height: 1080, refreshHz: 60))
        guard case .modeset(let choice, let note?) = action else { Issue.record("got \(action)"); return }
        #expect(choice.mode.width == 1366)
        #expect(note == "--mode 1920x1080@60 is not offered by HDMI-A-1; using its preferred 1366x768@60")
    }

    @Test func aConfiguredModeIsKeptWhenOffered() {
        let current = try! ModeChoice.choose(in: Self.box(hdmi: true), device: Self.device,
                                             mode: ModeRequest(width: 1920, height: 1080, refreshHz: 50))
        #expect(Self.decide(Self.box(hdmi: true), current: current, mode: ModeRequest(width: 1920, height: 1080, refreshHz: 50))
                == .keep(current))
    }
}

@Suite struct UEventTests {
    static func datagram(_ fields: [String]) -> [UInt8] { fields.flatMap { Array($0.utf8) + [0] } }

    @Test func aDRMHotplugIsRecognised() throws {
        let event = try #require(UEvent.parse(Self.datagram([
            "change@/devices/pci0000:00/0000:00:02.0/drm/card0", "ACTION=change",
            "DEVPATH=/devices/pci0000:00/0000:00:02.0/drm/card0", "SUBSYSTEM=drm", "HOTPLUG=1",
            "DEVNAME=dri/card0", "DEVTYPE=drm_minor", "SEQNUM=2345", "MAJOR=226", "MINOR=0"])))
        #expect(event.action == "change")
        #expect(event.devicePath == "/devices/pci0000:00/0000:00:02.0/drm/card0")
        #expect(event.properties["DEVNAME"] == "dri/card0")
        #expect(event.isDisplayHotplug)
    }

    @Test func otherEventsAreNotHotplugs() throws {
        let input = try #require(UEvent.parse(Self.datagram(["add@/devices/virtual/input/input7", "ACTION=add", "SUBSYSTEM=input"])))
        #expect(!input.isDisplayHotplug)
        let drmAdd = try #require(UEvent.parse(Self.datagram(["add@/devices/x/drm/card1", "ACTION=add", "SUBSYSTEM=drm"])))
        #expect(!drmAdd.isDisplayHotplug)
        // udevd's own messages on its netlink group start with "libudev\0", not ACTION@.
        #expect(UEvent.parse(Array("libudev".utf8) + [0, 0xfe, 0xed, 0xca, 0xfe]) == nil)
        #expect(UEvent.parse([UInt8]()) == nil)
    }
}
