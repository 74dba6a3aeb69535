import CInput
import Glibc
import ZapperCore

/// One HDMI-CEC adapter (`/dev/cecN`), kept open by the input thread. Opening it claims a
/// playback logical address when `CECClaim` says the adapter is free for it, so the TV sends
/// its remote's keys; those keys arrive as input events from the adapter's rc-core input
/// device (libinput reads it like any remote), never through this fd. The fd only reports the
/// adapter's state changes (an HDMI sink connected or gone, the address claimed or lost), for
/// the log.
final class CECAdapter {
    let devnode: String
    let fd: Int32
    let name: String

    /// Opens the adapter, logs what it is and what zapper does with it, and claims an address
    /// (in the background: the kernel says when it has one) if it should and `claim` allows.
    init(devnode: String, claim: Bool, log: (String) -> Void) throws(InputError) {
        let fd = open(devnode, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw InputError("open \(devnode)") }
        var state = zapper_cec_state()
        let status = zapper_cec_get_state(fd, &state)
        guard status == 0 else {
            Glibc.close(fd)
            throw InputError("\(devnode): CEC_ADAP_G_CAPS/G_PHYS_ADDR/G_LOG_ADDRS", code: status)
        }
        self.devnode = devnode
        self.fd = fd
        name = withUnsafeBytes(of: state.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let adapter = CECClaim.Adapter(
            name: name,
            setsLogicalAddresses: state.capabilities & UInt32(CEC_CAP_LOG_ADDRS) != 0,
            passesKeysToInput: state.capabilities & UInt32(CEC_CAP_RC) != 0,
            physicalAddress: state.phys_addr,
            configuredAddresses: Int(state.num_log_addrs),
            passthroughAllowed: state.flags & UInt32(CEC_LOG_ADDRS_FL_ALLOW_RC_PASSTHRU) != 0)
        let at = "HDMI-CEC \"\(name)\" at \(devnode)"
        switch CECClaim.decide(adapter) {
        case .leave(let reason):
            log("input: \(at) left as it is: \(reason)")
        case .claimPlayback where !claim:
            log("input: \(at) left as it is (--no-cec-claim): the TV remote's keys reach zapper only if something else claims a logical address with remote-control passthrough")
        case .claimPlayback:
            let claimed = zapper_cec_claim_playback(fd, "Zapper")
            if claimed == 0 {
                log("input: \(at): claiming a playback address with remote-control passthrough "
                    + "(physical address \(CECClaim.describe(physicalAddress: state.phys_addr)))")
            } else {
                log("input: \(at): \(InputError("CEC_ADAP_S_LOG_ADDRS", code: claimed)); the TV remote's keys will not reach zapper")
            }
        }
    }

    deinit { Glibc.close(fd) }

    /// The state changes waiting on the fd, as log lines, or the error that ends the adapter
    /// (it was unplugged).
    func stateChanges() -> (lines: [String], error: InputError?) {
        var lines: [String] = []
        while true {
            var physical: UInt16 = 0, mask: UInt16 = 0
            let status = zapper_cec_next_state_change(fd, &physical, &mask)
            if status < 0 { return (lines, InputError("\(devnode): CEC_DQEVENT", code: status)) }
            if status == 0 { return (lines, nil) }
            lines.append("input: HDMI-CEC \"\(name)\": \(CECClaim.describe(logicalAddressMask: mask)), "
                + "physical address \(CECClaim.describe(physicalAddress: physical))")
        }
    }
}
