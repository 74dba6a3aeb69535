/// What zapper does with an HDMI-CEC adapter it finds. A TV sends its remote's keys over CEC only
/// to a device with a logical address, and the kernel turns them into input events (the adapter's
/// rc-core input device, read like any remote) only when that address was claimed with
/// remote-control passthrough allowed. Nothing else configures a box's adapter, so zapper claims a
/// playback address on each one that is free for it, and leaves alone those that are not.
public enum CECClaim {
    /// What the kernel says about one adapter (`CEC_ADAP_G_CAPS`, `_G_PHYS_ADDR`, `_G_LOG_ADDRS`).
    public struct Adapter: Equatable, Sendable {
        public var name: String
        /// `CEC_CAP_LOG_ADDRS`: userspace sets the logical addresses.
        public var setsLogicalAddresses: Bool
        /// `CEC_CAP_RC`: the kernel can pass the remote's keys to an input device.
        public var passesKeysToInput: Bool
        public var physicalAddress: UInt16
        /// Logical addresses configured now (by anyone), and whether passthrough was allowed then.
        public var configuredAddresses: Int
        public var passthroughAllowed: Bool

        public init(name: String, setsLogicalAddresses: Bool, passesKeysToInput: Bool, physicalAddress: UInt16,
                    configuredAddresses: Int, passthroughAllowed: Bool) {
            self.name = name
            self.setsLogicalAddresses = setsLogicalAddresses
            self.passesKeysToInput = passesKeysToInput
            self.physicalAddress = physicalAddress
            self.configuredAddresses = configuredAddresses
            self.passthroughAllowed = passthroughAllowed
        }
    }

    public enum Decision: Equatable, Sendable {
        /// Claim a playback address with remote-control passthrough.
        case claimPlayback
        /// Leave the adapter as it is, for this reason (said once in the log).
        case leave(String)
    }

    /// The physical address meaning "no HDMI sink seen yet" (hot-plug detect low).
    public static let noPhysicalAddress: UInt16 = 0xFFFF

    public static func decide(_ adapter: Adapter) -> Decision {
        if !adapter.passesKeysToInput {
            return .leave("its driver gives the remote's keys to no input device")
        }
        if adapter.configuredAddresses > 0 {
            return .leave(adapter.passthroughAllowed
                ? "already has a logical address that passes the remote's keys"
                : "configured by another program without remote-control passthrough: the TV remote's keys will not reach zapper")
        }
        if !adapter.setsLogicalAddresses {
            return .leave("its driver manages the logical addresses")
        }
        if adapter.physicalAddress == 0 {
            // 0.0.0.0 is the root of the HDMI tree: the TV itself (a test driver's receiving side, say).
            return .leave("it is at 0.0.0.0, the TV's own address")
        }
        return .claimPlayback
    }

    /// "1.0.0.0", or "none" before a sink is connected.
    public static func describe(physicalAddress: UInt16) -> String {
        if physicalAddress == noPhysicalAddress { return "none (no HDMI sink connected)" }
        return [12, 8, 4, 0].map { String((physicalAddress >> UInt16($0)) & 0xF, radix: 16) }.joined(separator: ".")
    }

    /// "playback device 1 (logical address 4)" for the logical address mask's lowest set bit.
    public static func describe(logicalAddressMask mask: UInt16) -> String {
        guard mask != 0 else { return "no logical address" }
        let address = mask.trailingZeroBitCount
        let playback = [4: 1, 8: 2, 9: 3, 11: 4]
        if let number = playback[address] { return "playback device \(number) (logical address \(address))" }
        return address == 15 ? "unregistered (logical address 15)" : "logical address \(address)"
    }
}
