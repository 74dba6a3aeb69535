import Foundation
import Testing
import TestSupport
import ZapperCore
import ZapperMedia

/// CEA-608 as the demo channel writes it, read back by libavcodec's caption
/// decoder (`ccaption_dec`, real-time mode): pop-on captions straight from the
/// byte pairs, roll-up rows as they are typed, and the whole way through
/// libx264's A/53 SEI and the H.264 decoder's side data.
@Suite struct CaptionRoundTripTests {
    /// Each picture's cc_data through a CC1 decoder: the screens, with the picture each came at.
    func screens(_ ccData: [[UInt8]], channel: CaptionChannel = .cea608(1), frameRate: Int = 30) throws -> [(frame: Int, lines: [String])] {
        let decoder = try CaptionDecoder(channel)
        var found: [(frame: Int, lines: [String])] = []
        for (index, data) in ccData.enumerated() {
            for lines in try decoder.decode(data, milliseconds: Int64(index * 1000 / frameRate)) {
                found.append((index, lines))
            }
        }
        return found
    }

    @Test func popOnCaptionsShowAtTheirStartAndGoAtTheirEnd() throws {
        let captions = [CEA608PopOnWriter.Caption(start: 1.5, end: 4.5, lines: ["CAPTIONS TEN SAYS HELLO"]),
                        CEA608PopOnWriter.Caption(start: 6.5, end: 9.5, lines: ["THIS IS THE SECOND CAPTION", "IN TWO ROWS"])]
        let pairs = try CEA608PopOnWriter.pairs(for: captions, frameRate: 30, count: 300)
        let found = try screens(pairs.map(CEA608PopOnWriter.ccData))
        #expect(found.map(\.frame) == [45, 135, 195, 285], "\(found)")
        #expect(found.map(\.lines) == [["CAPTIONS TEN SAYS HELLO"], [], ["THIS IS THE SECOND CAPTION", "IN TWO ROWS"], []])
    }

    @Test func theWriterRefusesWhatItCannotCarry() {
        #expect(throws: CEA608PopOnWriter.WriteError.self) {
            try CEA608PopOnWriter.pairs(for: [.init(start: 1, end: 2, lines: ["Ünïcode"])], frameRate: 30, count: 90)
        }
        #expect(throws: CEA608PopOnWriter.WriteError.self) {
            try CEA608PopOnWriter.pairs(for: [.init(start: 1, end: 2, lines: [String(repeating: "A", count: 33)])], frameRate: 30, count: 90)
        }
        // Too little time before the start to load it.
        #expect(throws: CEA608PopOnWriter.WriteError.self) {
            try CEA608PopOnWriter.pairs(for: [.init(start: 0.1, end: 2, lines: ["A LONG LINE OF TEXT"])], frameRate: 30, count: 90)
        }
    }

    /// Roll-up: rows appear as they are typed (the decoder's real-time updates),
    /// a carriage return moves them up, two rows stay.
    @Test func rollUpRowsShowAsTheyAreTyped() throws {
        func text(_ line: String) -> [[UInt8]] {
            let bytes = Array(line.utf8)
            return stride(from: 0, to: bytes.count, by: 2).map { [bytes[$0], $0 + 1 < bytes.count ? bytes[$0 + 1] : 0] }
        }
        let rollUp2: [UInt8] = [0x14, 0x25], carriageReturn: [UInt8] = [0x14, 0x2D], row15: [UInt8] = [0x14, 0x60]
        var sequence: [[UInt8]] = [rollUp2, rollUp2, row15, row15] + text("THE FIRST ROW OF TEXT")
        sequence += [carriageReturn, carriageReturn] + text("THEN THE SECOND") + [carriageReturn, carriageReturn] + text("AND A THIRD")
        // One pair a picture, then quiet pictures so the last characters show.
        let data = sequence.map { CEA608PopOnWriter.ccData($0.map(CEA608Selector.withOddParity)) }
            + Array(repeating: CEA608PopOnWriter.ccData(nil), count: 30)
        let found = try screens(data)
        #expect(found.last?.lines == ["THEN THE SECOND", "AND A THIRD"], "\(found)")
        // Part of a row shows before the row is done: it is painted as it comes.
        #expect(found.contains { $0.lines.count == 1 && $0.lines[0].count < "THE FIRST ROW OF TEXT".count && "THE FIRST ROW OF TEXT".hasPrefix($0.lines[0]) },
                "\(found)")
        #expect(found.contains { $0.lines == ["THE FIRST ROW OF TEXT", "THEN THE SECOND"] }, "\(found)")
    }

    /// Paint-on (resume direct captioning): characters appear on screen as they are sent, and an
    /// erase clears them.
    @Test func paintOnTextShowsAsItIsSent() throws {
        let bytes = Array("PAINTED ONE PAIR AT A TIME".utf8)
        let text = stride(from: 0, to: bytes.count, by: 2).map { [bytes[$0], $0 + 1 < bytes.count ? bytes[$0 + 1] : 0] }
        let resumeDirect: [UInt8] = [0x14, 0x29], row15: [UInt8] = [0x14, 0x60], erase: [UInt8] = [0x14, 0x2C]
        let sequence: [[UInt8]?] = [resumeDirect, resumeDirect, row15, row15] + text + Array(repeating: nil, count: 15) + [erase, erase]
        let found = try screens(sequence.map { CEA608PopOnWriter.ccData($0?.map(CEA608Selector.withOddParity)) })
        let shown = found.map(\.lines)
        #expect(shown.contains(["PAINTED ONE PAIR AT A TIME"]), "\(found)")
        #expect(shown.last == [], "\(found)")
        // Before the row is complete, part of it is already on screen.
        #expect(shown.contains { $0.count == 1 && $0[0].count < 26 && "PAINTED ONE PAIR AT A TIME".hasPrefix($0[0]) }, "\(found)")
    }

    /// CC3 travels in field 2: a CC1 decoder sees none of it.
    @Test func anotherChannelIsNotShown() throws {
        let pairs = try CEA608PopOnWriter.pairs(for: [.init(start: 1.5, end: 3, lines: ["FIELD ONE"])], frameRate: 30, count: 120)
        // The same pairs sent as field 2 (type 1), with CC3's control codes.
        let asField2 = pairs.map { pair -> [UInt8] in
            guard let pair else { return CEA608PopOnWriter.ccData(nil) }
            let hi = pair[0] & 0x7F
            let isMiscControl = hi == 0x14 && (0x20...0x2F).contains(pair[1] & 0x7F)
            let moved = isMiscControl ? CEA608Selector.withOddParity(0x15) : pair[0]
            return [0xFC, 0x80, 0x80, 0xFD, moved, pair[1]]
        }
        #expect(try screens(asField2, channel: .cea608(1)).isEmpty)
        #expect(try screens(asField2, channel: .cea608(3)).map(\.lines) == [["FIELD ONE"], []])
    }

    /// 708 services are refused plainly by libavcodec's decoder (5.1 decodes no 708 text): ours
    /// (`CEA708Decoder`) reads them.
    @Test func service708IsNotDecodedByLibavcodec() {
        #expect(throws: AVError.self) { try CaptionDecoder(.cea708(service: 1)) }
    }

    /// CEA-708 pop-on as the demo channel writes it (beside 608 in the same cc_data), read back
    /// by our service decoder: each caption at its start, gone at its end; 608 still reads alone.
    @Test func service1PopOnShowsAtItsStartBesideCC1() throws {
        let cc1 = [CEA608PopOnWriter.Caption(start: 1.5, end: 4.5, lines: ["CAPTIONS TEN SAYS HELLO"])]
        let service1 = [CEA708PopOnWriter.Caption(start: 1.5, end: 4.5, lines: ["Service one says hello"]),
                        CEA708PopOnWriter.Caption(start: 6.5, end: 9.5, lines: ["Window two pops on", "in two rows"]),
                        CEA708PopOnWriter.Caption(start: 10, end: 12, lines: Array(repeating: String(repeating: "abcd", count: 8), count: 4))]
        let pairs = try CEA608PopOnWriter.pairs(for: cc1, frameRate: 30, count: 390)
        let triplets = try CEA708PopOnWriter.triplets(for: service1, frameRate: 30, count: 390)
        #expect(triplets.allSatisfy { $0.count <= 3 * CEA708PopOnWriter.perPicture })
        let ccData = zip(pairs, triplets).map { CEA608PopOnWriter.ccData($0) + $1 }
        var decoder = CEA708Decoder(service: 1)
        var found: [(frame: Int, lines: [String])] = []
        for (index, data) in ccData.enumerated() {
            if let lines = decoder.decode(data) { found.append((index, lines)) }
        }
        #expect(found.map(\.frame) == [45, 135, 195, 285, 300, 360], "\(found)")
        #expect(found.map(\.lines) == [["Service one says hello"], [], ["Window two pops on", "in two rows"], [],
                                       Array(repeating: String(repeating: "abcd", count: 8), count: 4), []])
        #expect(try screens(ccData).map(\.lines) == [["CAPTIONS TEN SAYS HELLO"], []])
    }

    /// Pictures encoded by libx264 with A/53 side data come back out of the
    /// H.264 decoder with the same cc_data, and read as the captions written.
    @Test(.timeLimit(.minutes(5))) func captionsSurviveLibx264AndTheH264Decoder() throws {
        let job = CaptionedVideoJob(red: 46, green: 125, blue: 110, seconds: 4, frameRate: 30, gop: 60,
                                    variants: [.init(name: "240p", width: 426, height: 240, kbps: 400, level: 30)],
                                    captions: [.init(start: 1.5, end: 3.5, lines: ["HELLO THROUGH X264"])],
                                    services: [.init(start: 1.5, end: 3.5, lines: ["Service 1 through x264"])])
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("captions-\(getpid()).ts").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try CaptionedVideoEncoder.encode(job, variant: job.variants[0], to: path)
        let queue = ByteQueue()
        queue.append(try Data(contentsOf: URL(fileURLWithPath: path)))
        queue.finish()
        let demuxer = try Demuxer(queue: queue)
        var ccData: [[UInt8]] = []
        try decodeAll(demuxer) { kind, frame in
            if kind == .video { ccData.append(frame.closedCaptionData ?? []) }
        }
        #expect(ccData.count == 120)
        #expect(ccData.allSatisfy { !$0.isEmpty })
        let found = try screens(ccData)
        #expect(found.map(\.lines) == [["HELLO THROUGH X264"], []], "\(found)")
        #expect(found.map(\.frame) == [45, 105])
        var service1 = CEA708Decoder(service: 1)
        let shown = ccData.enumerated().compactMap { index, data in service1.decode(data).map { (index, $0) } }
        #expect(shown.map(\.1) == [["Service 1 through x264"], []] && shown.map(\.0) == [45, 105], "\(shown)")
    }
}
