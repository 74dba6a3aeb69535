import Foundation
import Testing
import TestSupport
import ZapperCore
import ZapperMedia
import OriginKit

/// libavformat's mpegts demuxer on the origin's multiplex (two programmes in one TS, joined
/// mid-stream): the programme asked for, else the first with a picture, is the one read.
@Suite(.timeLimit(.minutes(5)))
struct MultiplexDemuxTests {
    func slices(_ channel: Int, count: Int) async throws -> Data {
        let origin = try OriginProcess.shared.get()
        let playlist = try await RawHTTPConnection.fetch(port: origin.port, "GET", "/broadcast/\(channel)/index.m3u8").text
        var bytes = Data()
        for name in playlist.split(separator: "\n").filter({ !$0.hasPrefix("#") }).suffix(count) {
            bytes.append(contentsOf: try await RawHTTPConnection.fetch(port: origin.port, "GET", "/broadcast/\(channel)/\(name)").body)
        }
        return bytes
    }

    @Test(arguments: [nil, 2] as [Int?])
    func theProgrammeAskedForIsTheOneRead(program: Int?) async throws {
        let catalog = try Repo.catalog()
        let channel = try #require(catalog.broadcastChannels.first { $0.change?.kind == "multiplex" })
        let queue = ByteQueue()
        queue.append(try await slices(channel.number, count: 3))
        queue.finish()
        let demuxer = try Demuxer(queue: queue, program: program)
        #expect(demuxer.program == Int32(program ?? 1))
        var pictures = 0, sound = 0
        var centre: (UInt8, UInt8, UInt8)?
        let scaler = VideoScaler()
        try TestSupport.decodeAll(demuxer) { kind, frame in
            guard kind == .video else { sound += frame.sampleCount; return }
            pictures += 1
            if centre == nil {
                var image = XRGBImage(width: 64, height: 36)
                try scaler.draw(frame, into: &image)
                centre = image.rgb(x: 32, y: 18)
            }
        }
        #expect(pictures > 60, "\(pictures) pictures of 6 s at 25 a second (the first group may be cut)")
        #expect(sound > 4 * 48_000, "\(sound) samples")
        let wanted = try #require(DemoChannel.rgbOf(program == nil ? channel.colour : channel.change?.colour ?? ""))
        let seen = try #require(centre)
        let red = abs(Int(seen.0) - Int(wanted.red)), green = abs(Int(seen.1) - Int(wanted.green)), blue = abs(Int(seen.2) - Int(wanted.blue))
        #expect(red + green + blue < 45, "programme \(program.map(String.init) ?? "first"): \(seen)")
    }
}
