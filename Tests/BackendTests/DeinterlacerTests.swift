import Foundation
import Testing
import TestSupport
import ZapperCore
import ZapperMedia

/// libavfilter's bwdif on the origin's broadcast channels: an interlaced segment gives two
/// pictures a frame, 20 ms apart, whose moving edge does not comb; a progressive one passes
/// as it is; yadif does the same.
@Suite(.timeLimit(.minutes(10)))
struct DeinterlacerTests {
    func newestSegment(_ channel: Int) async throws -> Data {
        let origin = try OriginProcess.shared.get()
        let playlist = try await RawHTTPConnection.fetch(port: origin.port, "GET", "/broadcast/\(channel)/index.m3u8").text
        let name = try #require(playlist.split(separator: "\n").last { !$0.hasPrefix("#") })
        let reply = try await RawHTTPConnection.fetch(port: origin.port, "GET", "/broadcast/\(channel)/\(name)")
        try #require(reply.status == 200 && reply.ending == .complete)
        return Data(reply.body)
    }

    struct Output {
        var decoded = 0
        var interlaced = 0
        var pictures: [(time: Double, comb: Double?)] = []
        var decodedComb: [Double] = []
    }

    /// Decodes the segment's pictures and puts them through `deinterlacer` (nil: as decoded).
    func run(_ segment: Data, _ deinterlacer: Deinterlacer?) throws -> Output {
        let queue = ByteQueue()
        queue.append(segment)
        queue.finish()
        let demuxer = try Demuxer(queue: queue)
        let stream = try #require(demuxer.firstStream(.video))
        let base = demuxer.timeBase(stream: stream)
        var output = Output()
        let scaler = VideoScaler()
        func comb(_ frame: Frame) throws -> Double? {
            // Drawn at its shape (an anamorphic picture its display width), its rows one to one.
            var image = XRGBImage(width: Int((Double(frame.width) * frame.sampleAspect).rounded()) & ~1, height: frame.height)
            try scaler.draw(frame, into: &image)
            // The bar's rows: the lower part of the picture, away from its edges.
            let top = Int(Double(image.height) * 0.7)
            return image.pixels.withUnsafeBufferPointer { pixels in
                combOffset(width: image.width, height: image.height, rows: top..<(image.height - 8)) { x, y in
                    let p = y * image.stride + x * 4
                    return isBarWhite(red: pixels[p + 2], green: pixels[p + 1], blue: pixels[p])
                }
            }
        }
        func take(_ frames: [Frame], _ timeBase: (numerator: Int32, denominator: Int32)) throws {
            for frame in frames {
                let time = frame.pts.flatMap { StreamTime.seconds($0, numerator: timeBase.numerator, denominator: timeBase.denominator) } ?? -1
                output.pictures.append((time, try comb(frame)))
            }
        }
        try TestSupport.decodeAll(demuxer) { kind, frame in
            guard kind == .video else { return }
            output.decoded += 1
            if Deinterlacer.isInterlaced(frame) { output.interlaced += 1 }
            if output.decodedComb.count < 5, let value = try comb(frame) { output.decodedComb.append(value) }
            if let deinterlacer {
                try take(try deinterlacer.push(frame, timeBase: base), deinterlacer.timeBase)
            } else {
                try take([frame], base)
            }
        }
        if let deinterlacer { try take(try deinterlacer.drain(), deinterlacer.timeBase) }
        return output
    }

    @Test(arguments: Deinterlacer.Filter.allCases)
    func anInterlacedSegmentPlaysAtFieldRateWithoutComb(filter: Deinterlacer.Filter) async throws {
        // 576i25, MPEG-2 (a DVB SD channel): 50 frames in its 2 s.
        let segment = try await newestSegment(102)
        let woven = try run(segment, nil)
        #expect(woven.decoded >= 49 && woven.interlaced == woven.decoded, "\(woven.decoded) decoded, \(woven.interlaced) interlaced")
        // As decoded, the moving edge combs (the bar moves about 10 pixels a field here).
        let combed = woven.decodedComb.sorted()[woven.decodedComb.count / 2]
        #expect(combed > 4, "the decoded pictures comb by \(combed) px")

        let out = try run(segment, Deinterlacer(filter: filter, rate: .field))
        #expect(out.pictures.count == 2 * woven.decoded, "\(out.pictures.count) pictures from \(woven.decoded) frames")
        let gaps = zip(out.pictures, out.pictures.dropFirst()).map { $1.time - $0.time }
        #expect(gaps.allSatisfy { abs($0 - 0.02) < 0.001 }, "field times: \(gaps.prefix(6))")
        let combs = out.pictures.compactMap(\.comb).sorted()
        let median = combs[combs.count / 2]
        #expect(median < 1.5, "\(filter): the deinterlaced pictures comb by \(median) px")

        // Frame rate: one picture a frame.
        let halved = try run(segment, Deinterlacer(filter: filter, rate: .frame))
        #expect(halved.pictures.count == woven.decoded)
    }

    @Test func aProgressiveStreamPassesUntouched() async throws {
        // 720p50, progressive: every picture passes, with its own time.
        let segment = try await newestSegment(106)
        let plain = try run(segment, nil)
        let out = try run(segment, Deinterlacer())
        #expect(plain.interlaced == 0)
        #expect(out.pictures.count == plain.pictures.count)
        #expect(zip(out.pictures, plain.pictures).allSatisfy { abs($0.time - $1.time) < 0.001 })
    }
}
