import Foundation
import Synchronization
import Testing
import TestSupport
import ZapperCore
import ZapperMedia

/// libavformat and libavcodec on real segments from the demo origin, fed
/// through our own AVIOContext. Channel 1 is never given faults by the
/// tests that share the origin.
@Suite(.timeLimit(.minutes(30)))
struct MediaDecodeTests {
    func newestSegments(_ count: Int, rendition: String = "1080p") throws -> [Data] {
        let origin = try OriginProcess.shared.get()
        let playlist = try RawHTTPConnection.fetch(port: origin.port, "GET", "/ch/1/\(rendition)/index.m3u8").text
        let names = playlist.split(separator: "\n").filter { !$0.hasPrefix("#") }.suffix(count)
        return try names.map { name in
            let reply = try RawHTTPConnection.fetch(port: origin.port, "GET", "/ch/1/\(rendition)/\(name)")
            try #require(reply.status == 200 && reply.ending == .complete)
            return Data(reply.body)
        }
    }

    struct Decoded {
        var videoFrames = 0
        var audioSamples = 0
        var width = 0
        var height = 0
        var pixelFormat = ""
        var sampleRate = 0
        var consumedAtFirstPicture: Int?
    }

    func decodeAll(_ demuxer: Demuxer, queue: ByteQueue) throws -> Decoded {
        var result = Decoded()
        try TestSupport.decodeAll(demuxer) { kind, frame in
            if kind == .video {
                result.videoFrames += 1
                result.width = frame.width
                result.height = frame.height
                result.pixelFormat = frame.formatName
                if result.consumedAtFirstPicture == nil { result.consumedAtFirstPicture = queue.consumed }
            } else {
                result.audioSamples += frame.sampleCount
                result.sampleRate = frame.sampleRate
            }
        }
        return result
    }

    @Test func decodesALiveSegmentFedThroughOurOwnIO() throws {
        let segment = try #require(try newestSegments(1).first)
        let queue = ByteQueue()
        queue.append(segment)
        queue.finish()
        let demuxer = try Demuxer(queue: queue)
        #expect(demuxer.probed)
        let video = try #require(demuxer.firstStream(.video))
        let audio = try #require(demuxer.firstStream(.audio))
        #expect(demuxer.parameters[video].codecName == "h264")
        #expect(demuxer.parameters[video].width == 1920 && demuxer.parameters[video].height == 1080)
        #expect(demuxer.parameters[audio].codecName == "aac" && demuxer.parameters[audio].sampleRate == 48_000)
        #expect(demuxer.timeBase(stream: video) == (1, 90_000))

        let decoded = try decodeAll(demuxer, queue: queue)
        #expect(decoded.videoFrames == 60)  // 2 s at 30 fps
        #expect(decoded.width == 1920 && decoded.height == 1080 && decoded.pixelFormat == "yuv420p")
        #expect(decoded.sampleRate == 48_000)
        // About two seconds: the muxer cuts audio at packet boundaries, a few AAC frames either way.
        #expect(abs(decoded.audioSamples - 96_000) <= 5 * 1024, "\(decoded.audioSamples) samples")
        #expect(queue.consumed == segment.count)
    }

    @Test func cachedCodecParametersSkipProbing() throws {
        let segments = try newestSegments(2)
        let cold = ByteQueue()
        cold.append(segments[0])
        cold.finish()
        let probed = try Demuxer(queue: cold)
        let coldOpen = cold.consumed
        let coldResult = try decodeAll(probed, queue: cold)

        let warm = ByteQueue()
        warm.append(segments[1])
        warm.finish()
        let cached = try Demuxer(queue: warm, cached: probed.parameters)
        #expect(!cached.probed)
        // Opening without probing reads only the program tables, not a probe's worth of the segment.
        #expect(warm.consumed < coldOpen, "opened after \(warm.consumed) bytes cached, \(coldOpen) bytes probed")
        let warmResult = try decodeAll(cached, queue: warm)
        #expect(warmResult.videoFrames == 60 && warmResult.width == 1920)
        // Without probing, the first picture needs no more of the segment read (reads come in
        // 32 KiB blocks, and a big key frame can need as many blocks as the probe did).
        let coldBytes = try #require(coldResult.consumedAtFirstPicture)
        let warmBytes = try #require(warmResult.consumedAtFirstPicture)
        #expect(warmBytes <= coldBytes, "first picture after \(warmBytes) bytes cached, \(coldBytes) bytes probed")
    }

    @Test func cancellingTheQueueUnblocksAWaitingDemuxer() async throws {
        let queue = ByteQueue()  // no data will ever come
        let finished = Mutex<String?>(nil)
        let thread = Thread {
            do {
                let demuxer = try Demuxer(queue: queue)
                _ = try demuxer.readPacket()
                finished.withLock { $0 = "returned" }
            } catch {
                finished.withLock { $0 = "\(error)" }
            }
        }
        thread.start()
        try await Task.sleep(for: .milliseconds(200))
        #expect(finished.withLock { $0 } == nil)  // still blocked on the read
        queue.cancel()
        for _ in 0..<100 where finished.withLock({ $0 }) == nil {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(finished.withLock { $0 }?.contains("Immediate exit requested") == true)
    }

    @Test func garbageIsAnErrorWithFFmpegsMessage() throws {
        let queue = ByteQueue()
        queue.append(Data(repeating: 0x47, count: 100))
        queue.finish()
        do {
            _ = try Demuxer(queue: queue)
            Issue.record("100 bytes of sync bytes were taken for a stream")
        } catch {
            // Probing ran out of input without finding a stream: FFmpeg's own words.
            #expect(error is AVError)
            #expect("\(error)" == "avformat_find_stream_info: End of file")
        }
    }
}
