import Foundation

/// Makes a loop's segments, sent back to back, one continuous MPEG-TS stream as a
/// broadcast is: every PCR, PTS and DTS moved on by the loops already played (33-bit
/// arithmetic, as the fields wrap), and every PID's continuity counter running on.
struct TSRetimer {
    private static let packetSize = 188
    private static let wrap: Int64 = 1 << 33
    private var counters: [Int: UInt8] = [:]

    /// `data` (whole packets) with its clocks moved on by `ticks` (90 kHz).
    mutating func retime(_ data: Data, by ticks: Int64) -> Data {
        var bytes = [UInt8](data)
        var start = 0
        while start + Self.packetSize <= bytes.count, bytes[start] == 0x47 {
            retimePacket(&bytes, at: start, by: ticks)
            start += Self.packetSize
        }
        return Data(bytes)
    }

    private mutating func retimePacket(_ bytes: inout [UInt8], at start: Int, by ticks: Int64) {
        let pid = (Int(bytes[start + 1] & 0x1F) << 8) | Int(bytes[start + 2])
        let control = (bytes[start + 3] >> 4) & 0x3
        var payload = start + 4
        if control & 0x2 != 0 {
            let length = Int(bytes[start + 4])
            if length >= 7, bytes[start + 5] & 0x10 != 0 { movePCR(&bytes, at: start + 6, by: ticks) }
            payload = start + 5 + length
        }
        guard control & 0x1 != 0 else { return }
        let counter = counters[pid] ?? (bytes[start + 3] & 0x0F)
        bytes[start + 3] = (bytes[start + 3] & 0xF0) | counter
        counters[pid] = (counter + 1) & 0x0F
        // A PES header at the start of the payload: its PTS, and DTS.
        let end = start + Self.packetSize
        guard bytes[start + 1] & 0x40 != 0, payload + 19 <= end, bytes[payload] == 0, bytes[payload + 1] == 0, bytes[payload + 2] == 1,
              bytes[payload + 6] & 0xC0 == 0x80 else { return }
        let flags = bytes[payload + 7] >> 6
        if flags & 0x2 != 0 { moveTimestamp(&bytes, at: payload + 9, by: ticks) }
        if flags == 0x3 { moveTimestamp(&bytes, at: payload + 14, by: ticks) }
    }

    private func movePCR(_ bytes: inout [UInt8], at index: Int, by ticks: Int64) {
        var base = Int64(bytes[index]) << 25 | Int64(bytes[index + 1]) << 17 | Int64(bytes[index + 2]) << 9
        base |= Int64(bytes[index + 3]) << 1 | Int64(bytes[index + 4] >> 7)
        let moved = (base + ticks) % Self.wrap
        bytes[index] = UInt8(truncatingIfNeeded: moved >> 25)
        bytes[index + 1] = UInt8(truncatingIfNeeded: moved >> 17)
        bytes[index + 2] = UInt8(truncatingIfNeeded: moved >> 9)
        bytes[index + 3] = UInt8(truncatingIfNeeded: moved >> 1)
        bytes[index + 4] = (bytes[index + 4] & 0x7F) | UInt8((moved & 1) << 7)
    }

    private func moveTimestamp(_ bytes: inout [UInt8], at index: Int, by ticks: Int64) {
        var value = Int64((bytes[index] >> 1) & 0x07) << 30 | Int64(bytes[index + 1]) << 22
        value |= Int64(bytes[index + 2] >> 1) << 15 | Int64(bytes[index + 3]) << 7 | Int64(bytes[index + 4] >> 1)
        let moved = (value + ticks) % Self.wrap
        bytes[index] = (bytes[index] & 0xF1) | UInt8(truncatingIfNeeded: (moved >> 29) & 0x0E)
        bytes[index + 1] = UInt8(truncatingIfNeeded: moved >> 22)
        bytes[index + 2] = UInt8(truncatingIfNeeded: (moved >> 14) & 0xFE) | 1
        bytes[index + 3] = UInt8(truncatingIfNeeded: moved >> 7)
        bytes[index + 4] = UInt8(truncatingIfNeeded: (moved << 1) & 0xFE) | 1
    }
}
