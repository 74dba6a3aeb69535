import Foundation
import Testing
@testable import OriginKit
import TestSupport

/// The demo channel with CEA-608 captions: its script's timing and checks, and
/// what the running origin serves for it.
@Suite struct CaptionedChannelTests {
    func captioned() throws -> DemoChannel {
        try #require(try Repo.catalog().channels.first { !$0.captionTracks.isEmpty })
    }

    @Test func eachCaptionGetsAnEqualSlotOfTheLoop() throws {
        let channel = try captioned()
        let track = try #require(channel.captions?.first)
        let cues = CaptionedChannel.cues(track, loopSeconds: 20)
        #expect(cues.count == track.script.count)
        let slot = 20.0 / Double(track.script.count)
        for (index, cue) in cues.enumerated() {
            #expect(cue.start == Double(index) * slot + 1.5 && cue.end == Double(index + 1) * slot - 0.5)
            #expect(cue.lines == track.script[index])
        }
        #expect(CaptionedChannel.problem(channel, loopSeconds: 20) == nil)
    }

    @Test func scriptsTheEncoderCannotWriteAreRefused() throws {
        var channel = try captioned()
        let good = try #require(channel.captions?.first)
        func problem(_ change: (inout DemoChannel.CaptionTrack) -> Void) -> String? {
            var track = good
            change(&track)
            channel.captions = [track]
            return CaptionedChannel.problem(channel, loopSeconds: 20)
        }
        #expect(problem { $0.instream = "CC2" } != nil)
        #expect(problem { $0.script = [[String(repeating: "A", count: 33)]] } != nil)
        #expect(problem { $0.script = [["A", "B", "C", "D", "E"]] } != nil)
        #expect(problem { $0.script = Array(repeating: ["A"], count: 11) } != nil)
        #expect(problem { $0.script = [] } != nil)
        #expect(problem { $0.script = [["ÜBER"]] } != nil)
        #expect(problem { $0.script = [Array(repeating: String(repeating: "A", count: 32), count: 4)] } != nil, "too much to load in 1.5 s")
        // CEA-708 service 1 goes after CC1, never alone or twice.
        var service = good
        service.instream = "SERVICE1"
        channel.captions = [good, service]
        #expect(CaptionedChannel.problem(channel, loopSeconds: 20) == nil)
        channel.captions = [service]
        #expect(CaptionedChannel.problem(channel, loopSeconds: 20) != nil)
        channel.captions = [good, service, service]
        #expect(CaptionedChannel.problem(channel, loopSeconds: 20) != nil)
    }
}

extension OriginOverHTTP {
    /// The origin's captions channel: its master names CC1 and SERVICE1, and every variant's H.264 carries A/53 captions.
    @Suite struct CaptionsOverHTTP {
        @Test func theMasterNamesCC1AndEveryVariantCarriesCaptions() async throws {
            let origin = try OriginProcess.shared.get()
            let channel = try #require(try Repo.catalog().channels.first { !$0.captionTracks.isEmpty })
            let master = try await RawHTTPConnection.fetch(port: origin.port, "GET", "/ch/\(channel.number)/master.m3u8").text
            #expect(channel.captionTracks.map(\.instream) == ["CC1", "SERVICE1"])
            for track in channel.captionTracks {
                #expect(master.contains("#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID=\"cc\",LANGUAGE=\"\(track.language)\",NAME=\"\(track.name)\",INSTREAM-ID=\"\(track.instream)\""),
                        "\(master)")
            }
            let variants = master.split(separator: "\n").filter { $0.hasPrefix("#EXT-X-STREAM-INF:") }
            #expect(variants.count == VideoVariant.all.count && variants.allSatisfy { $0.contains("CLOSED-CAPTIONS=\"cc\"") }, "\(master)")
            for variant in VideoVariant.all {
                let playlist = try await RawHTTPConnection.fetch(port: origin.port, "GET", "/ch/\(channel.number)/\(variant.name)/index.m3u8").text
                let name = try #require(playlist.split(separator: "\n").last { !$0.hasPrefix("#") })
                let segment = try await Tool.temporaryFile(
                    RawHTTPConnection.fetch(port: origin.port, "GET", "/ch/\(channel.number)/\(variant.name)/\(name)").body, suffix: ".ts")
                defer { try? FileManager.default.removeItem(at: segment) }
                // ffprobe's H.264 decoder reports the A/53 captions it finds in the SEI (once it has decoded the pictures).
                let probe = try await Tool.run("ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries", "stream=closed_captions,width",
                                                     "-of", "csv=p=0", segment.path])
                let text = String(decoding: probe.stdout, as: UTF8.self)
                #expect(text.contains("\(variant.width),1"), "\(variant.name): \(text) \(probe.stderr)")
            }
        }
    }
}
