import CInput
import Foundation
import Glibc
import ZapperCore

/// The TV's power over HDMI-CEC: each `/dev/cecN` is opened for the moment of the message
/// (the input thread keeps its own fd for the TV remote's keys), and the message queued
/// without waiting for the TV's acknowledgement.
public struct CECPower: TVPower {
    /// CEC opcodes (CEC 1.4/2.0).
    static let standbyOpcode: UInt8 = 0x36
    static let imageViewOn: UInt8 = 0x04
    static let activeSource: UInt8 = 0x82
    static let tv: UInt8 = 0
    static let broadcast: UInt8 = 0xF

    let given: [String]?

    /// The adapters of this box: those given, else every `/dev/cecN` there is at each message (an
    /// adapter plugged in after the start counts; none: every call fails, saying so).
    public init(devices: [String]? = nil) {
        given = devices
    }

    var devices: [String] {
        given ?? ((try? FileManager.default.contentsOfDirectory(atPath: "/dev")) ?? [])
            .filter { $0.hasPrefix("cec") }.sorted().map { "/dev/" + $0 }
    }

    public func standby() throws {
        try each { fd in try send(fd, to: Self.tv, Self.standbyOpcode, []) }
    }

    public func wake() throws {
        try each { fd in
            try send(fd, to: Self.tv, Self.imageViewOn, [])
            let address = zapper_cec_physical_address(fd)
            guard address >= 0, address != 0xFFFF else { throw InputError("CEC_ADAP_G_PHYS_ADDR (no physical address)", code: address < 0 ? address : ENODEV) }
            try send(fd, to: Self.broadcast, Self.activeSource, [UInt8(address >> 8), UInt8(address & 0xFF)])
        }
    }

    /// Runs `body` on each adapter of the box. An adapter at physical address 0.0.0.0 is a TV's
    /// own (an HDMI input, as on a PC with a capture card or vivid's emulated TV): the box does
    /// not talk to the TV through it.
    private func each(_ body: (Int32) throws -> Void) throws {
        var failure: (any Error)?
        var used = 0
        for device in devices {
            let fd = open(device, O_RDWR | O_NONBLOCK | O_CLOEXEC)
            guard fd >= 0 else {
                failure = InputError("open \(device)")
                continue
            }
            defer { close(fd) }
            guard zapper_cec_physical_address(fd) != 0 else { continue }
            used += 1
            do { try body(fd) } catch { failure = error }
        }
        if let failure { throw failure }
        guard used > 0 else { throw InputError("no HDMI-CEC adapter of a source device (/dev/cec*)", code: ENODEV) }
    }

    private func send(_ fd: Int32, to: UInt8, _ opcode: UInt8, _ operands: [UInt8]) throws {
        let status = operands.withUnsafeBufferPointer { zapper_cec_transmit(fd, to, opcode, $0.baseAddress, UInt32($0.count)) }
        guard status == 0 else { throw InputError(String(format: "CEC_TRANSMIT opcode 0x%02x", opcode), code: status) }
    }
}
