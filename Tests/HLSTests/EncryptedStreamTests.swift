import Foundation
import Testing
import TestSupport
import ZapperCore
import ZapperHLS
import ZapperMedia

/// AES-128 segments (`/ch/N/aes/`: the key rotates every three segments,
/// with an explicit IV in even key periods and the media sequence number in
/// odd ones) are decrypted as they stream and decode to the channel.
extension HLSLiveSessionTests {
    static let encryptedChannel = 4

    /// The origin's key periods (OriginKit's SegmentEncryption): three segments each; even ones give an IV.
    static func keyPeriod(_ sequence: Int64) -> Int64 { sequence / 3 }
    static func hasExplicitIV(_ sequence: Int64) -> Bool { keyPeriod(sequence) % 2 == 0 }

    /// A channel's colour from channels.json (this target does not link OriginKit).
    static func colour(channel: Int) throws -> (red: Int, green: Int, blue: Int) {
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: Repo.catalogURL)) as? [String: Any]
        let channels = try #require(json?["channels"] as? [[String: Any]])
        let hex = try #require(channels.first { $0["number"] as? Int == channel }?["colour"] as? String)
        let value = try #require(Int(hex.dropFirst(), radix: 16))
        return (value >> 16 & 0xFF, value >> 8 & 0xFF, value & 0xFF)
    }

    func encryptedURL(_ origin: OriginProcess) -> URL {
        URL(string: "http://127.0.0.1:\(origin.port)/ch/\(Self.encryptedChannel)/aes/master.m3u8")!
    }

    /// The origin's fMP4 channel, encrypted the same way (its EXT-X-MAP section in the clear).
    static let encryptedFragmentedChannel = 2

    /// The encrypted master of each form: "ts" (MPEG-TS) or "fmp4".
    func encryptedURL(_ origin: OriginProcess, form: String) -> (url: URL, channel: Int) {
        form == "fmp4"
            ? (URL(string: "http://127.0.0.1:\(origin.port)/ch/\(Self.encryptedFragmentedChannel)/aes/fmp4/master.m3u8")!, Self.encryptedFragmentedChannel)
            : (encryptedURL(origin), Self.encryptedChannel)
    }

    /// The colour left of the channel number, mid-height, in the middle picture of a segment.
    static func segmentColour(_ queue: ByteQueue, container: SegmentContainer = .mpegTS) throws -> (UInt8, UInt8, UInt8) {
        let demuxer = try Demuxer(queue: queue, container: container)
        let video = try #require(demuxer.firstStream(.video))
        let decoder = try Decoder(demuxer.parameters[video])
        var pictures: [Frame] = []
        while let packet = try demuxer.readPacket() {
            guard packet.streamIndex == video else { continue }
            try decoder.send(packet)
            while let frame = try decoder.receive() { pictures.append(frame) }
        }
        try decoder.send(nil)
        while let frame = try decoder.receive() { pictures.append(frame) }
        try #require(pictures.count >= 30, "\(pictures.count) pictures")
        var image = XRGBImage(width: 640, height: 360)
        try VideoScaler().draw(pictures[pictures.count / 2], into: &image)
        return image.rgb(x: 13, y: 192)
    }

    @Test(arguments: ["ts", "fmp4"])
    func encryptedSegmentsAreDecryptedAsTheyStreamAndShowTheChannel(form: String) async throws {
        let origin = try OriginProcess.shared.get()
        let (url, channel) = encryptedURL(origin, form: form)
        let colour = try Self.colour(channel: channel)
        let (session, recorder, consumer) = play(url, buffered: 0)
        defer { session.cancel(); consumer.cancel() }
        func fetched() -> [Int64] {
            recorder.events.withLock { $0.compactMap { if case .segmentFetched(let sequence, _, _, _) = $0 { sequence } else { nil } } }
        }
        // Four in a row span at least two key periods: a rotation, explicit and implicit IVs.
        try await recorder.waitFor("four decrypted segments handed on", seconds: 60) {
            let first = fetched().prefix(4)
            return first.count == 4 && first.allSatisfy(recorder.delivered)
        }
        let failures = recorder.events.withLock { $0.filter { if case .segmentFailed = $0 { true } else { false } } }
        #expect(failures.isEmpty, "\(failures.map(\.line))")
        let sequences = Array(fetched().prefix(4))
        #expect(Set(sequences.map(Self.keyPeriod)).count >= 2)
        #expect(sequences.contains(where: Self.hasExplicitIV) && !sequences.allSatisfy(Self.hasExplicitIV))
        let deliveries = recorder.deliveries.withLock { $0 }
        for sequence in sequences {
            let delivery = try #require(deliveries.first { $0.sequence == sequence })
            #expect(delivery.container == (form == "fmp4" ? .fragmentedMP4 : .mpegTS))
            let rgb = try Self.segmentColour(delivery.bytes, container: delivery.container)
            let distance = abs(Int(rgb.0) - colour.red) + abs(Int(rgb.1) - colour.green) + abs(Int(rgb.2) - colour.blue)
            #expect(distance < 45, "segment \(sequence): \(rgb), channel colour \(colour)")
        }
    }

    @Test func aKeyThatCannotBeFetchedFailsItsSegmentNamingTheKey() async throws {
        let origin = try await OriginProcess.start(arguments: ["--fault", "\(Self.encryptedChannel):segment-404"])
        defer { origin.stop() }
        let (session, recorder, consumer) = play(encryptedURL(origin))
        defer { session.cancel(); consumer.cancel() }
        try await recorder.waitFor("failed segments") { recorder.count { if case .segmentFailed = $0 { true } else { false } } >= 2 }
        let line = recorder.events.withLock { $0.first { if case .segmentFailed = $0 { true } else { false } }?.line } ?? ""
        #expect(line.contains("key http://127.0.0.1:\(origin.port)/ch/\(Self.encryptedChannel)/aes/key/") && line.contains("HTTP 404"), "\(line)")
        #expect(recorder.deliveries.withLock { $0.isEmpty })
    }
}
