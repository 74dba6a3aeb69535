import Testing
import ZapperCore

struct CECClaimTests {
    /// A box's HDMI transmitter as the kernel shows it before anything configured it.
    private let free = CECClaim.Adapter(name: "dw_hdmi", setsLogicalAddresses: true, passesKeysToInput: true,
                                        physicalAddress: 0x1000, configuredAddresses: 0, passthroughAllowed: false)

    @Test func aFreeAdapterIsClaimedAsAPlaybackDevice() {
        #expect(CECClaim.decide(free) == .claimPlayback)
        var unplugged = free
        unplugged.physicalAddress = CECClaim.noPhysicalAddress  // the kernel claims once a TV is there
        #expect(CECClaim.decide(unplugged) == .claimPlayback)
    }

    @Test func anAdapterSomeoneConfiguredIsLeftAlone() {
        var ours = free
        ours.configuredAddresses = 1
        ours.passthroughAllowed = true  // zapper's own claim before a restart, or the system's
        guard case .leave(let reason) = CECClaim.decide(ours) else { Issue.record("claimed again"); return }
        #expect(reason.contains("passes the remote's keys"))
        var theirs = ours
        theirs.passthroughAllowed = false
        guard case .leave(let warning) = CECClaim.decide(theirs) else { Issue.record("taken over"); return }
        #expect(warning.contains("will not reach zapper"))
    }

    @Test func adaptersThatCannotGiveKeysOrAreTheTVAreLeftAlone() {
        var noRC = free
        noRC.passesKeysToInput = false
        #expect(CECClaim.decide(noRC) != .claimPlayback)
        var driverManaged = free
        driverManaged.setsLogicalAddresses = false
        #expect(CECClaim.decide(driverManaged) != .claimPlayback)
        var tv = free
        tv.physicalAddress = 0  // the root of the HDMI tree
        #expect(CECClaim.decide(tv) == .leave("it is at 0.0.0.0, the TV's own address"))
    }

    @Test func addressesAreWrittenAsPeopleReadThem() {
        #expect(CECClaim.describe(physicalAddress: 0x1000) == "1.0.0.0")
        #expect(CECClaim.describe(physicalAddress: 0x21A0) == "2.1.a.0")
        #expect(CECClaim.describe(physicalAddress: 0xFFFF).hasPrefix("none"))
        #expect(CECClaim.describe(logicalAddressMask: 0x0010) == "playback device 1 (logical address 4)")
        #expect(CECClaim.describe(logicalAddressMask: 0x0100) == "playback device 2 (logical address 8)")
        #expect(CECClaim.describe(logicalAddressMask: 0) == "no logical address")
    }
}
