import Foundation
import Testing
@testable import OriginKit
import TestSupport

/// The origin's AES-128 demo: which key and IV apply where in the playlist,
/// and segments that `openssl enc -d` decrypts with them.
@Suite struct SegmentEncryptionTests {
    let writer = PlaylistWriter(timeline: LiveTimeline(segmentSeconds: 2, loopSegments: 10, windowSegments: 6))

    func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test func keyTagsOpenTheWindowAndEveryKeyPeriod() {
        // At t=1000 the window is 494…499: periods 164 (492–494, explicit IV), 165 (495–497, implicit), 166 (498–).
        let text = writer.media(durations: Array(repeating: 2, count: 10), segmentExtension: "ts", at: 1000, encryptedChannel: 4)
        let lines = text.split(separator: "\n").map(String.init)
        let keyLines = lines.indices.filter { lines[$0].hasPrefix("#EXT-X-KEY") }
        #expect(keyLines.count == 3)
        // Each tag comes before the segment that starts its period.
        let firstSegments = keyLines.map { index in lines[index...].first { !$0.hasPrefix("#") } }
        #expect(firstSegments == ["494.ts", "495.ts", "498.ts"])
        let iv164 = SegmentEncryption.explicitIV(channel: 4, period: 164)!
        #expect(lines[keyLines[0]] == "#EXT-X-KEY:METHOD=AES-128,URI=\"../key/164.key\",IV=0x\(hex(iv164).uppercased())")
        #expect(lines[keyLines[1]] == "#EXT-X-KEY:METHOD=AES-128,URI=\"../key/165.key\"")
        #expect(lines[keyLines[2]].hasPrefix("#EXT-X-KEY:METHOD=AES-128,URI=\"../key/166.key\",IV=0x"))
        // In the clear without a channel.
        #expect(!writer.media(durations: [2], segmentExtension: "ts", at: 1000).contains("EXT-X-KEY"))
    }

    @Test func keysDifferByChannelAndPeriod() {
        let keys = [(1, 5), (1, 6), (2, 5), (4, 164)].map { SegmentEncryption.key(channel: $0.0, period: Int64($0.1)) }
        #expect(Set(keys.map(hex)).count == keys.count && keys.allSatisfy { $0.count == 16 })
        #expect(SegmentEncryption.key(channel: 4, period: 164) == SegmentEncryption.key(channel: 4, period: 164))
    }

    @Test func fragmentedPlaylistsCarryTheirMap() {
        let text = writer.media(durations: Array(repeating: 2, count: 10), segmentExtension: "m4s", at: 1000, initSection: "init.mp4")
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.contains("#EXT-X-VERSION:7") && !lines.contains("#EXT-X-VERSION:3"))
        let map = lines.firstIndex(of: "#EXT-X-MAP:URI=\"init.mp4\"")
        #expect(map != nil && map! < lines.firstIndex(of: "494.m4s")!)
        let arguments = FragmentedMP4.arguments(inputs: ["a/0.ts", "a/1.ts"], output: URL(fileURLWithPath: "/tmp/out"))
        #expect(arguments.contains("concat:a/0.ts|a/1.ts") && arguments.contains("-hls_segment_type"))
        #expect(arguments.last == "/tmp/out/index.m3u8")
    }

    @Test(arguments: [Int64(492), 495, 496])
    func segmentsDecryptWithOpenSSL(sequence: Int64) async throws {
        let plain = Data((0..<(188 * 50)).map { UInt8(truncatingIfNeeded: $0 * 31) })
        let cipher = try SegmentEncryption.encrypt(plain, channel: 4, sequence: sequence)
        #expect(cipher.count == plain.count + 16 - plain.count % 16)
        let period = SegmentEncryption.period(of: sequence)
        let iv = SegmentEncryption.explicitIV(channel: 4, period: period)
            ?? [UInt8](repeating: 0, count: 14) + [UInt8(sequence >> 8), UInt8(sequence & 0xFF)]
        #expect(SegmentEncryption.iv(channel: 4, sequence: sequence) == iv)
        let file = try Tool.temporaryFile([UInt8](cipher), suffix: ".ts.enc")
        defer { try? FileManager.default.removeItem(at: file) }
        let output = try await Tool.run("openssl", ["enc", "-d", "-aes-128-cbc", "-K", hex(SegmentEncryption.key(channel: 4, period: period)),
                                              "-iv", hex(iv), "-in", file.path])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout == plain)
    }
}
