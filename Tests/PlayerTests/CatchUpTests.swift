import Foundation
import Testing
import TestSupport
import ZapperCore
import ZapperHLS
@testable import ZapperEngine

/// A decoder behind what is heard skips a group of pictures whose key frame is already past
/// (and the rest of the group at hand once it is far behind), and decodes the next group, in
/// time: it catches up instead of decoding pictures that would only be dropped as late (and
/// its sound with them).
@Suite(.timeLimit(.minutes(5)))
struct CatchUpTests {
    @Test func aGroupAlreadyPastIsSkipped() async throws {
        let origin = try OriginProcess.shared.get()
        let channel = LineupChannel(number: 2, name: "Channel 2",  // a key frame every 2 s, at each segment
                                    url: URL(string: "http://127.0.0.1:\(origin.port)/ch/2/master.m3u8")!, line: 1)
        let playback = ChannelPlayback(channel: channel, serial: 1, sampleRate: 48_000, parametersCache: ParametersCache(),
                                       warmMemory: WarmMemory()) { _, _ in }
        playback.start()
        defer { playback.stop() }
        // Played as a clock would, on a thread of its own, as a player's clock is (a loop on
        // Swift's pool, beside hundreds of tests, wakes seconds late).
        let (start, times) = try await onOwnThread { () -> (Double?, [Double]) in
            var first: Double?
            let deadline = Date().addingTimeInterval(30)
            while first == nil, Date() < deadline {
                first = playback.picture(at: nil)?.time
                Thread.sleep(forTimeInterval: 0.002)
            }
            guard let start = first else { return (nil, []) }
            // The clock jumps 3.5 s on: the next segment's group (2-4 s) starts in the past. From
            // there the sound is taken as it comes (what is heard never passes what was decoded),
            // so the group after (4 s) is in time; and once heard, no further than the pictures
            // taken (sound taken dry would let the picture queue drop pictures instead of waiting
            // for this loop).
            // The sound queue holds at most a second, and a segment whose sound is muxed further
            // ahead of its pictures than that blocks the decode thread until some is taken: a real
            // clock never stops, so while no new picture comes the sound is taken on, slowly: 0.1 s
            // each half second without one, too slow to make the pictures late (on CI, waiting for
            // the pictures alone once left the last ones undecoded for 25 s).
            let jump = start + 3.5
            var heard = jump
            var times: [Double] = []
            var pictureCame = Date()
            while Date() < deadline, (times.last ?? 0) < 5 {
                let stalled = Date().timeIntervalSince(pictureCame) > 0.5
                if heard <= jump || heard < start + (times.last ?? 0) + 0.2 || stalled,
                   let taken = playback.takeAudio(frames: 4800, from: heard), taken.lead == 0 {
                    heard = taken.time + Double(taken.samples.count / 2) / 48_000
                    if stalled { pictureCame = Date() }  // a tenth of a second of sound each half second stalled
                }
                // Every picture there is, at once: a 240p picture decodes in under the loop's 2 ms,
                // and one a turn let the queue fill, whose oldest go once the sound has run dry.
                while let picture = playback.picture(at: nil) {
                    times.append(picture.time - start)
                    pictureCame = Date()
                }
                Thread.sleep(forTimeInterval: 0.002)
            }
            return (start, times)
        }
        _ = try #require(start, "no first picture")
        #expect((times.last ?? 0) >= 5, "pictures up to 5 s: \(times.count), the last at \(times.last ?? 0)")
        let skipped = times.filter { $0 > 1.99 && $0 < 3.99 }
        #expect(skipped.isEmpty, "\(skipped.count) pictures of the late group were decoded: \(skipped.prefix(5))")
        #expect(times.filter { $0 >= 4 && $0 < 5 }.count >= 25, "the group in time is decoded whole")
    }
}
