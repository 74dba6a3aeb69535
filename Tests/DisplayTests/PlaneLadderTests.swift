import Testing
import ZapperCore

@Suite struct PlaneLadderTests {
    @Test func settopBoxGetsTheYUVPlaneAndAnARGBPlaneAboveIt() throws {
        let description = KMSFixtures.settop
        let mode = try ModeChoice.choose(in: description, device: "card0")
        var tested: [PlanePlan] = []
        let choice = try PlaneLadder.choose(in: description, for: mode) { tested.append($0); return true }
        #expect(tested.count == 1)
        let plan = choice.plan
        #expect(plan.step == .yuvVideoPlane)
        #expect(plan.crtcID == 41)  // the only CRTC HDMI-A-1's encoder can use
        #expect(plan.connectorID == 51)
        let video = try #require(plan.layer(.video)), ui = try #require(plan.layer(.ui))
        #expect(video.planeID == 13 && video.format == FourCC.nv12)  // NV12 preferred over YUV420
        #expect(ui.planeID == 14 && ui.format == FourCC.argb8888)
        #expect(plan.disabledPlanes == [11])  // the primary; cursors are left alone; plane 12 is CRTC 40's
        #expect(choice.description.contains("video NV12 on plane 13"))
    }

    @Test func theVideoTestProvesScaling() throws {
        let description = KMSFixtures.settop
        // The mode is 1920x1080, like the default video size: the test scales a half-size picture.
        let mode = try ModeChoice.choose(in: description, device: "card0")
        let plan = try PlaneLadder.choose(in: description, for: mode) { _ in true }.plan
        let video = try #require(plan.layer(.video))
        #expect(video.scales && video.sourceWidth == 960 && video.sourceHeight == 540)
        #expect(video.width == 1920 && video.height == 1080)
        let at720 = try ModeChoice.choose(in: description, device: "card0", mode: ModeRequest(width: 1280, height: 720))
        let scaled = try #require(try PlaneLadder.choose(in: description, for: at720) { _ in true }.plan.layer(.video))
        #expect(scaled.sourceWidth == 1920 && scaled.width == 1280)
    }

    @Test func aDriverThatRejectsYUVFallsToOneXRGBPrimaryPlane() throws {
        let description = KMSFixtures.settop
        let mode = try ModeChoice.choose(in: description, device: "card0")
        var tested: [PlanePlan.Step] = []
        let choice = try PlaneLadder.choose(in: description, for: mode) { plan in
            tested.append(plan.step)
            return !plan.layers.contains { $0.format == FourCC.nv12 || $0.format == FourCC.yuv420 }
        }
        #expect(tested == [.yuvVideoPlane, .softwareComposite])
        #expect(choice.plan.step == .softwareComposite)
        #expect(choice.plan.layers == [PlaneLayer(role: .screen, planeID: 11, format: FourCC.xrgb8888,
                                                  sourceWidth: 1920, sourceHeight: 1080, width: 1920, height: 1080)])
        #expect(choice.plan.disabledPlanes == [13, 14])
        #expect(choice.description.contains("software"))
        #expect(choice.description.contains("refused 1 YUV plane assignment"))
    }

    @Test func bochsHasOnlyTheSoftwareRung() throws {
        let description = KMSFixtures.bochs
        let mode = try ModeChoice.choose(in: description, device: "card0")
        var tests = 0
        let choice = try PlaneLadder.choose(in: description, for: mode) { _ in tests += 1; return true }
        #expect(tests == 1)
        #expect(choice.plan.step == .softwareComposite)
        #expect(choice.plan.crtcID == 34 && choice.plan.layers[0].planeID == 31)
        #expect(choice.description.contains("no YUV plane"))
    }

    @Test func theUIPlaneMustStackAboveTheVideo() throws {
        var description = KMSFixtures.settop
        // Swap the stacking: the ARGB overlay is now below the YUV one.
        description.planes[4].zpos = 0
        description.planes[3].zpos = 2
        let mode = try ModeChoice.choose(in: description, device: "card0")
        let choice = try PlaneLadder.choose(in: description, for: mode) { _ in true }
        #expect(choice.plan.step == .softwareComposite)
        // A primary plane that scans NV12 takes the video; any ARGB overlay is above it.
        description.planes[1].formats.append(FourCC.nv12)
        let onPrimary = try PlaneLadder.choose(in: description, for: mode) { _ in true }.plan
        #expect(onPrimary.layer(.video)?.planeID == 11)
        #expect(onPrimary.layer(.ui)?.planeID == 14)
    }

    @Test func possibleCRTCMasksAreRespected() throws {
        var description = KMSFixtures.settop
        // Route HDMI through CRTC 40 instead: its only YUV overlay (12) has no ARGB plane above it.
        description.encoders[1].possibleCRTCs = 0b01
        let mode = try ModeChoice.choose(in: description, device: "card0")
        var tested: [PlanePlan] = []
        let choice = try PlaneLadder.choose(in: description, for: mode) { tested.append($0); return true }
        #expect(tested.allSatisfy { $0.crtcID == 40 })
        #expect(choice.plan.step == .softwareComposite)
        #expect(choice.plan.layers[0].planeID == 10)
    }

    @Test func everyRungRefusedIsAClearError() throws {
        let mode = try ModeChoice.choose(in: KMSFixtures.settop, device: "card0")
        #expect(throws: KMSError.noPlaneConfiguration(connector: "HDMI-A-1", mode: "1920x1080@60")) {
            try PlaneLadder.choose(in: KMSFixtures.settop, for: mode) { _ in false }
        }
    }

    @Test func crtcsForAConnectorPutTheCurrentOneFirst() {
        var description = KMSFixtures.settop
        description.encoders[1].possibleCRTCs = 0b11
        #expect(description.crtcs(for: description.connectors[1]) == [40, 41])
        description.connectors[1].currentCRTC = 41
        #expect(description.crtcs(for: description.connectors[1]) == [41, 40])
    }

    @Test func fourCCNames() {
        #expect(FourCC.xrgb8888 == 0x3432_5258)
        #expect(FourCC.nv12 == 0x3231_564e)
        #expect(FourCC.name(FourCC.yuv420) == "YUV420")
        #expect(FourCC.name(FourCC.code("RG16")) == "RG16")
        #expect(FourCC.name(0x01) == "0x1")
    }
}
