import PropertyBased
import Testing
@testable import ZapperCore

/// A warm raw MPEG-TS channel keeps its tables and the bytes from its latest key frame.
@Suite struct TSKeyFrameWindowTests {
    static let pmtPID = 0x1000, videoPID = 0x100, audioPID = 0x101

    /// One packet: `pid`, a PES or section start, the random access flag, `payload` padded.
    static func packet(_ pid: Int, start: Bool = false, randomAccess: Bool = false, _ payload: [UInt8] = []) -> [UInt8] {
        var bytes: [UInt8] = [TSPacket.sync, UInt8((start ? 0x40 : 0) | (pid >> 8)), UInt8(pid & 0xFF)]
        bytes += randomAccess ? [0x30, 1, 0x40] : [0x10]
        bytes += payload
        return bytes + [UInt8](repeating: 0xFF, count: TSPacket.size - bytes.count)
    }

    static let pat = packet(0, start: true, [0, 0x00, 0xB0, 13, 0, 1, 0xC1, 0, 0, 0, 1, UInt8(0xE0 | (pmtPID >> 8)), 0, 1, 2, 3, 4])
    static let pmt = packet(pmtPID, start: true, [0, 0x02, 0xB0, 23, 0, 1, 0xC1, 0, 0, 0xE1, 0, 0xF0, 0,
                                                  0x1B, 0xE1, 0x00, 0xF0, 0, 0x0F, 0xE1, 0x01, 0xF0, 0, 1, 2, 3, 4])
    /// A video PES start whose first NAL unit is `nal` (0x67 an SPS, 0x65 an IDR, 0x41 another slice).
    static func video(_ nal: UInt8, randomAccess: Bool = false) -> [UInt8] {
        packet(videoPID, start: true, randomAccess: randomAccess, [0, 0, 1, 0xE0, 0, 0, 0x80, 0x80, 5, 0x21, 0, 1, 0, 1, 0, 0, 0, 1, nal, 0x42])
    }
    static let audio = packet(audioPID, start: true, randomAccess: true, [0, 0, 1, 0xC0, 0, 0, 0x80, 0x80, 5, 0x21, 0, 1, 0, 1])
    static let more = packet(videoPID, [1, 2, 3])

    static let stream = pat + pmt + video(0x41) + video(0x41, randomAccess: true) + audio + more + video(0x67) + more + audio + video(0x41) + more

    @Test func keepsTheTablesAndTheLatestKeyFrameOn() {
        var window = TSKeyFrameWindow()
        window.append(Self.stream)
        #expect(window.keyFrames == 2)
        #expect(window.bytes == Self.pat + Self.pmt + Self.video(0x67) + Self.more + Self.audio + Self.video(0x41) + Self.more)
    }

    @Test func audioRandomAccessIsNoKeyFrame() {
        var window = TSKeyFrameWindow()
        window.append(Self.pat + Self.pmt + Self.audio + Self.more + Self.video(0x41) + Self.audio)
        #expect(window.keyFrames == 0)
        #expect(window.bytes.isEmpty)
    }

    @Test func theChunkingDoesNotMatter() async {
        var whole = TSKeyFrameWindow()
        whole.append(Self.stream)
        await propertyCheck(count: 200, input: Gen<Int>.int(in: 1...400).array(of: 1...40)) { sizes in
            var window = TSKeyFrameWindow()
            var (index, turn) = (0, 0)
            while index < Self.stream.count {
                let size = sizes[turn % sizes.count]
                window.append(Self.stream[index..<min(index + size, Self.stream.count)])
                index += size
                turn += 1
            }
            #expect(window.bytes == whole.bytes)
        }
    }

    @Test func bytesWithoutSyncAreSkipped() {
        var window = TSKeyFrameWindow()
        window.append([1, 2, 3, 0x47, 5] + Self.pat + Self.pmt + Self.video(0x65) + [9, 0x47] + Self.more + Self.more)
        #expect(window.skippedBytes == 7)
        #expect(window.bytes == Self.pat + Self.pmt + Self.video(0x65) + Self.more + Self.more)
    }

    @Test func aStreamWithoutKeyFramesForTooLongKeepsNothing() {
        var window = TSKeyFrameWindow(limit: 4 * TSPacket.size)
        window.append(Self.pat + Self.pmt + Self.video(0x65) + Self.more + Self.more + Self.more)
        #expect(window.bytes.count == 6 * TSPacket.size)
        window.append(Self.more)
        #expect(window.bytes.isEmpty)
        window.append(Self.video(0x67))
        #expect(window.bytes == Self.pat + Self.pmt + Self.video(0x67))
    }

    @Test func hostileBytesStayWithinTheLimit() async {
        await propertyCheck(count: 50, input: Gen<UInt8>.uint8().array(of: 1500)) { noise in
            var window = TSKeyFrameWindow(limit: 64 << 10)
            // Sync bytes often, so that packets and tables are read.
            var chunk = noise
            for index in stride(from: 0, to: chunk.count, by: 47) { chunk[index] = TSPacket.sync }
            for _ in 0..<40 { window.append(chunk + Self.stream) }
            #expect(window.bytes.count <= (64 << 10) + 17 * TSPacket.size)
        }
    }

    @Test func knowsWhereTheFirstKeyFramesPictureEnds() {
        var window = TSKeyFrameWindow()
        let size = TSPacket.size
        // Tables, a slice before any key frame, the key frame (two packets), sound, then the next picture.
        let head = Self.pat + Self.pmt + Self.video(0x41) + Self.video(0x65) + Self.more + Self.audio
        window.append(head)
        #expect(window.keyFrames == 1 && window.picturesAfterKeyFrame == 0 && window.firstKeyFrameEnd == nil)
        // In any chunking: the next picture's first packet, split.
        let next = Self.video(0x41)
        window.append(next.prefix(100))
        #expect(window.firstKeyFrameEnd == nil)
        window.append(next.dropFirst(100) + Self.more + Self.video(0x41))
        #expect(window.picturesAfterKeyFrame == 2)
        #expect(window.firstKeyFrameEnd == 6 * size, "the bytes before the next picture hold the key frame")
        // A later key frame starts the count again; where the first one ended stays.
        window.append(Self.video(0x65) + Self.video(0x41))
        #expect(window.keyFrames == 2 && window.picturesAfterKeyFrame == 1 && window.firstKeyFrameEnd == 6 * size)
    }
}
