import Foundation
import Testing
import TestSupport
import ZapperCore
@testable import ZapperHLS
import ZapperMedia

/// fMP4 (EXT-X-MAP) from the origin's `/ch/2/fmp4/`: each segment is handed
/// on behind its initialization section and decodes to the channel's
/// picture and tone.
extension HLSLiveSessionTests {
    static let fragmentedChannel = 2

    func fragmentedURL(_ origin: OriginProcess, _ path: String = "master.m3u8") -> URL {
        URL(string: "http://127.0.0.1:\(origin.port)/ch/\(Self.fragmentedChannel)/fmp4/\(path)")!
    }

    /// The channels' first tones, from channels.json.
    static func tones() throws -> [Int: Int] {
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: Repo.catalogURL)) as? [String: Any]
        let channels = try #require(json?["channels"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: try channels.map { channel in
            let audio = try #require(channel["audio"] as? [[String: Any]])
            return (try #require(channel["number"] as? Int), try #require(audio.first?["toneHz"] as? Int))
        })
    }

    @Test func fragmentedSegmentsComeWithTheirInitSectionAndShowTheChannel() async throws {
        let origin = try OriginProcess.shared.get()
        let colour = try Self.colour(channel: Self.fragmentedChannel)
        let tones = try Self.tones()
        let (session, recorder, consumer) = play(fragmentedURL(origin), buffered: 0)
        defer { session.cancel(); consumer.cancel() }
        func fetched() -> [(sequence: Int64, bytes: Int)] {
            recorder.events.withLock { $0.compactMap { if case .segmentFetched(let sequence, let bytes, _, _) = $0 { (sequence, bytes) } else { nil } } }
        }
        try await recorder.waitFor("two fMP4 segments fetched and handed on", seconds: 60) {
            let first = fetched().prefix(2)
            return first.count == 2 && first.allSatisfy { recorder.delivered($0.sequence) }
        }
        let failures = recorder.events.withLock { $0.filter { if case .segmentFailed = $0 { true } else { false } } }
        #expect(failures.isEmpty, "\(failures.map(\.line))")
        let initSection = try await RawHTTPConnection.fetch(port: origin.port, "GET", "/ch/\(Self.fragmentedChannel)/fmp4/240p/init.mp4")
        #expect(initSection.status == 200 && Array(initSection.body.dropFirst(4).prefix(4)) == Array("ftyp".utf8))
        let deliveries = recorder.deliveries.withLock { $0 }
        for (sequence, bytes) in fetched().prefix(2) {
            let delivery = try #require(deliveries.first { $0.sequence == sequence })
            #expect(delivery.container == .fragmentedMP4)
            // The init section, then the segment's own bytes.
            #expect(delivery.bytes.appendedCount == initSection.body.count + bytes)
            let demuxer = try Demuxer(queue: delivery.bytes, container: delivery.container)
            var pictures: [Frame] = []
            var samples: [Int16] = []
            let resampler = AudioResampler(outputRate: 48_000)
            try decodeAll(demuxer) { kind, frame in
                if kind == .video { pictures.append(frame) } else { samples += try resampler.convert(frame) }
            }
            try #require(pictures.count >= 30, "segment \(sequence): \(pictures.count) pictures")
            var image = XRGBImage(width: 640, height: 360)
            try VideoScaler().draw(pictures[pictures.count / 2], into: &image)
            let rgb = image.rgb(x: 13, y: 192)
            let distance = abs(Int(rgb.0) - colour.red) + abs(Int(rgb.1) - colour.green) + abs(Int(rgb.2) - colour.blue)
            #expect(distance < 45, "segment \(sequence): \(rgb), channel colour \(colour)")
            // About two seconds of sound, whose strongest demo tone is this channel's.
            let left = stride(from: 0, to: samples.count, by: 2).map { Float(samples[$0]) / 32768 }
            #expect(left.count > 48_000, "segment \(sequence): \(left.count) samples")
            let strongest = tones.values.max { goertzelPower(left, frequency: Double($0), sampleRate: 48_000)
                < goertzelPower(left, frequency: Double($1), sampleRate: 48_000) }
            #expect(strongest == tones[Self.fragmentedChannel], "segment \(sequence)")
        }
    }

    @Test func anInitSectionIsFetchedOncePerURIAndRange() async throws {
        let origin = try await OriginProcess.start()
        let sections = InitSections(fetcher: .shared)
        let whole = HLSInitSection(uri: fragmentedURL(origin, "240p/init.mp4"), byteRange: nil)
        let head = HLSInitSection(uri: whole.uri, byteRange: HLSByteRange(length: 8, offset: 0))
        let bytes = try await sections.bytes(whole)
        #expect(Array(bytes.dropFirst(4).prefix(4)) == Array("ftyp".utf8))
        #expect(try await sections.bytes(head) == Array(bytes.prefix(8)))
        origin.stop()
        // Both come from the cache once the origin is gone; another range does not.
        #expect(try await sections.bytes(whole) == bytes)
        #expect(try await sections.bytes(head) == Array(bytes.prefix(8)))
        await #expect(throws: InitSections.Failure.self) {
            try await sections.bytes(HLSInitSection(uri: whole.uri, byteRange: HLSByteRange(length: 8, offset: 8)))
        }
    }
}
