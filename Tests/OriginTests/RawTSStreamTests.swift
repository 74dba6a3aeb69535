import Foundation
import Synchronization
import Testing
@testable import OriginKit

/// The origin's raw MPEG-TS body (`/shapes/raw/`): paced by the wall clock, its clocks
/// moved on across the loop's restarts, its continuity counters running on.
@Suite struct RawTSStreamTests {
    /// A video PES start carrying a PCR, a PTS and a DTS, all zero.
    static let timedPacket: [UInt8] = {
        var bytes: [UInt8] = [0x47, 0x41, 0x00, 0x30, 7, 0x10, 0, 0, 0, 0, 0x7E, 0]
        bytes += [0, 0, 1, 0xE0, 0, 0, 0x80, 0xC0, 10, 0x31, 0, 1, 0, 1, 0x11, 0, 1, 0, 1]
        return bytes + [UInt8](repeating: 0xFF, count: 188 - bytes.count)
    }()

    static func timestamp(_ bytes: [UInt8], at index: Int) -> Int64 {
        Int64((bytes[index] >> 1) & 0x07) << 30 | Int64(bytes[index + 1]) << 22 | Int64(bytes[index + 2] >> 1) << 15
            | Int64(bytes[index + 3]) << 7 | Int64(bytes[index + 4] >> 1)
    }

    static func pcr(_ bytes: [UInt8]) -> Int64 {
        Int64(bytes[6]) << 25 | Int64(bytes[7]) << 17 | Int64(bytes[8]) << 9 | Int64(bytes[9]) << 1 | Int64(bytes[10] >> 7)
    }

    @Test func clocksMoveOnByTheLoopsPlayed() {
        var retimer = TSRetimer()
        let ticks: Int64 = 20 * 90_000 + 1
        let moved = [UInt8](retimer.retime(Data(Self.timedPacket + Self.timedPacket), by: ticks))
        for start in [0, 188] {
            let packet = Array(moved[start..<(start + 188)])
            #expect(Self.pcr(packet) == ticks)
            #expect(Self.timestamp(packet, at: 12 + 9) == ticks && Self.timestamp(packet, at: 12 + 14) == ticks)
            // The marker bits and the prefixes stay.
            #expect(packet[21] & 0xF1 == 0x31 && packet[26] & 0xF1 == 0x11 && packet[10] & 0x7E == 0x7E)
        }
        // The continuity counter runs on, across calls too.
        #expect([moved[3] & 0x0F, moved[191] & 0x0F] == [0, 1])
        #expect([UInt8](retimer.retime(Data(Self.timedPacket), by: 0))[3] & 0x0F == 2)
    }

    @Test func theNewestSegmentComesAtOnceThenTheNextAsTheClockPlaysIt() {
        let now = Mutex(1000.5)
        let segment = Data((0..<10).flatMap { _ in [0x47, 0x01, 0x00, 0x10] + [UInt8](repeating: 0, count: 184) })
        let stream = LiveTSStream(timeline: LiveTimeline(segmentSeconds: 2, loopSegments: 10, windowSegments: 6), loopSeconds: 20,
                                  clock: { now.withLock { $0 } }, endsAt: 1004) { _ in segment }
        func sent() -> Int? {
            guard case .bytes(let data) = stream.next() else { return nil }
            return data.count
        }
        // Segment 499 is whole at 1000 s: sent at once, with the first quarter of 500, in whole packets.
        #expect(sent() == 1880 + 376)
        #expect(sent() == 0)
        now.withLock { $0 = 1001.5 }
        #expect(sent() == 1316 - 376)
        now.withLock { $0 = 1002 }
        #expect(sent() == 1880 - 1316)
        now.withLock { $0 = 1004 }
        guard case .drop = stream.next() else {
            Issue.record("the connection is dropped at its time")
            return
        }
    }
}
