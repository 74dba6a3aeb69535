import Testing
import ZapperCore

@Suite struct ModeChoiceTests {
    @Test func firstConnectedConnectorAndItsPreferredMode() throws {
        let choice = try ModeChoice.choose(in: KMSFixtures.settop, device: "/dev/dri/card0")
        #expect(choice.connector.name == "HDMI-A-1")
        #expect(choice.mode == KMSMode(width: 1920, height: 1080, refreshMilliHz: 60000, preferred: true))
        let bochs = try ModeChoice.choose(in: KMSFixtures.bochs, device: "/dev/dri/card0")
        #expect(bochs.mode.description == "1280x800@60")
    }

    @Test func withoutAPreferredModeTheFirstIsTaken() throws {
        var description = KMSFixtures.bochs
        description.connectors[0].modes[0].preferred = false
        #expect(try ModeChoice.choose(in: description, device: "card0").modeIndex == 0)
    }

    @Test func connectorByNameIgnoringCase() throws {
        let choice = try ModeChoice.choose(in: KMSFixtures.settop, device: "card0", connector: "hdmi-a-1")
        #expect(choice.connector.id == 51)
    }

    @Test func unknownOrUnpluggedConnectorIsAClearError() {
        #expect(throws: KMSError.unknownConnector(name: "HDMI-A-2", connectors: ["DSI-1", "HDMI-A-1"])) {
            try ModeChoice.choose(in: KMSFixtures.settop, device: "card0", connector: "HDMI-A-2")
        }
        #expect(throws: KMSError.connectorNotConnected(name: "DSI-1")) {
            try ModeChoice.choose(in: KMSFixtures.settop, device: "card0", connector: "DSI-1")
        }
    }

    @Test func noConnectedConnectorNamesTheDeviceAndItsConnectors() {
        var description = KMSFixtures.settop
        description.connectors[1].connected = false
        do {
            _ = try ModeChoice.choose(in: description, device: "/dev/dri/card1")
            Issue.record("chose a connector with none connected")
        } catch {
            #expect(error == .noConnectedConnector(device: "/dev/dri/card1", connectors: ["DSI-1", "HDMI-A-1"]))
            #expect(error.description == "/dev/dri/card1: no connector has a display attached (connectors: DSI-1, HDMI-A-1)")
        }
    }

    @Test func requestedModeWithAndWithoutRefresh() throws {
        func pick(_ text: String) throws -> KMSMode {
            try ModeChoice.choose(in: KMSFixtures.settop, device: "card0", mode: ModeRequest.parse(text)).mode
        }
        // No rate: the preferred one of that size (progressive), else the fastest.
        #expect(try pick("1920x1080").refreshMilliHz == 60000)
        #expect(try pick("1920x1080").interlaced == false)
        #expect(try pick("1920x1080@50").refreshMilliHz == 50000)
        #expect(try pick("1920x1080@59.94").refreshMilliHz == 59940)
        #expect(try pick("1280x720@60hz").description == "1280x720@60")
        #expect(try pick("3840x2160").refreshMilliHz == 30000)
    }

    @Test func modeNotOfferedListsTheOfferedModes() {
        do {
            _ = try ModeChoice.choose(in: KMSFixtures.bochs, device: "card0", mode: ModeRequest(width: 1920, height: 1080, refreshHz: 30))
            Issue.record("chose a mode that is not offered")
        } catch {
            #expect(error.description == "--mode 1920x1080@30: Virtual-1 does not offer it (offered: 1280x800@60, 1920x1080@60, 1920x1080@50, 1024x768@60)")
        }
        #expect(throws: KMSError.self) {
            try ModeChoice.choose(in: KMSFixtures.bochs, device: "card0", mode: ModeRequest(width: 3840, height: 2160))
        }
    }

    @Test func modeStrings() throws {
        #expect(try ModeRequest.parse("1920x1080") == ModeRequest(width: 1920, height: 1080))
        #expect(try ModeRequest.parse("1280X720@59.94") == ModeRequest(width: 1280, height: 720, refreshHz: 59.94))
        #expect(try ModeRequest.parse("1280x720@50Hz").refreshHz == 50)
        for bad in ["", "1920", "1920x", "x1080", "1920x1080@", "1920x1080@0", "axb", "1920x1080@60@60", "-1x5", "1920x1080x3"] {
            #expect(throws: KMSError.badModeSyntax(bad), "\(bad)") { try ModeRequest.parse(bad) }
        }
        #expect(ModeRequest(width: 1920, height: 1080, refreshHz: 59.94).description == "1920x1080@59.94")
        #expect(KMSMode(width: 1920, height: 1080, refreshMilliHz: 59940).description == "1920x1080@59.94")
        #expect(KMSMode(width: 1920, height: 1080, refreshMilliHz: 50000, interlaced: true).description == "1920x1080i@50")
    }
}
