import Foundation
import OriginKit
import Testing
import TestSupport
import ZapperCore
import ZapperMedia
import ZapperUI

/// Decoded pictures scaled into the display's XRGB frame, saved as PNG;
/// decoded audio converted for ALSA. On real segments of the demo origin.
@Suite(.timeLimit(.minutes(30)))
struct PictureAndSoundTests {
    struct DecodedSegment {
        var pictures: [Frame] = []
        var audio: [Frame] = []
    }

    /// Decodes the newest segment of a channel (channels 1 and 3 are never faulted by shared-origin tests).
    func decodeNewest(channel: Int, rendition: String) throws -> DecodedSegment {
        let origin = try OriginProcess.shared.get()
        let playlist = try RawHTTPConnection.fetch(port: origin.port, "GET", "/ch/\(channel)/\(rendition)/index.m3u8").text
        let name = try #require(playlist.split(separator: "\n").last { !$0.hasPrefix("#") })
        let segment = try RawHTTPConnection.fetch(port: origin.port, "GET", "/ch/\(channel)/\(rendition)/\(name)")
        let queue = ByteQueue()
        queue.append(Data(segment.body))
        queue.finish()
        var result = DecodedSegment()
        try decodeAll(try Demuxer(queue: queue)) { kind, frame in
            if kind == .video { result.pictures.append(frame) } else { result.audio.append(frame) }
        }
        return result
    }

    func channel(_ number: Int) throws -> DemoChannel {
        try #require(try Repo.catalog().channel(number: number))
    }

    func close(_ a: (UInt8, UInt8, UInt8), _ b: (red: UInt8, green: UInt8, blue: UInt8), within: Int = 45) -> Bool {
        abs(Int(a.0) - Int(b.red)) + abs(Int(a.1) - Int(b.green)) + abs(Int(a.2) - Int(b.blue)) < within
    }

    @Test func aspectFitLetterboxesAndPillarboxes() {
        #expect(aspectFit(source: (1920, 1080), target: (1280, 720)) == (0, 0, 1280, 720))
        #expect(aspectFit(source: (1920, 1080), target: (1000, 1000)) == (0, 219, 1000, 562))
        #expect(aspectFit(source: (640, 480), target: (1920, 1080)) == (240, 0, 1440, 1080))
    }

    @Test func pictureIsScaledIntoTheFrameWithBlackBarsAndSavedAsPNG() async throws {
        let blue = try channel(3)
        let decoded = try decodeNewest(channel: 3, rendition: "720p")
        let picture = try #require(decoded.pictures.dropFirst(15).first)  // mid-second, away from any flash
        var frame = XRGBImage(width: 1080, height: 1080)  // a square screen: bars above and below
        let scaler = VideoScaler()
        try scaler.draw(picture, into: &frame)
        let rgb = try #require(blue.rgb)
        // Bars are black; the background below the text, left of the moving pattern, is the channel's colour.
        #expect(frame.rgb(x: 540, y: 40) == (0, 0, 0))
        #expect(frame.rgb(x: 540, y: 1040) == (0, 0, 0))
        #expect(close(frame.rgb(x: 40, y: 560), rgb), "\(frame.rgb(x: 40, y: 560))")

        let path = FileManager.default.temporaryDirectory.appendingPathComponent("zapper-snapshot-\(getpid()).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try PNGWriter.write(pixels: frame.pixels, width: frame.width, height: frame.height, stride: frame.stride, to: path)
        // Read back with ffmpeg: the same pixels.
        let back = try await Tool.run("ffmpeg", ["-v", "error", "-nostdin", "-i", path, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
        #expect(back.status == 0 && back.stdout.count == 1080 * 1080 * 3)
        let offset = (560 * 1080 + 40) * 3
        #expect(Array(back.stdout[offset..<offset + 3]) == [frame.rgb(x: 40, y: 560).0, frame.rgb(x: 40, y: 560).1, frame.rgb(x: 40, y: 560).2])
    }

    /// On a square screen, fit leaves bars; fill and zoom cover it (cropping the sides),
    /// zoom showing a smaller part of the picture than fill.
    @Test func fillAndZoomCoverTheScreen() throws {
        let picture = try #require(try decodeNewest(channel: 3, rendition: "720p").pictures.dropFirst(15).first)
        let scaler = VideoScaler()
        var images: [PictureMode: XRGBImage] = [:]
        for mode in PictureMode.allCases {
            var image = XRGBImage(width: 540, height: 540)
            scaler.mode = mode
            try scaler.draw(picture, into: &image)
            images[mode] = image
        }
        #expect(images[.fit]!.rgb(x: 270, y: 10) == (0, 0, 0))
        for mode in [PictureMode.fill, .zoom] {
            let image = images[mode]!
            #expect(image.rgb(x: 270, y: 10) != (0, 0, 0), "\(mode): bar at the top")
            #expect(image.rgb(x: 270, y: 530) != (0, 0, 0), "\(mode): bar at the bottom")
        }
        #expect(images[.fill]!.pixels != images[.zoom]!.pixels)
    }

    @Test func audioIsConvertedToInterleavedStereoForALSA() throws {
        let red = try channel(1)
        let decoded = try decodeNewest(channel: 1, rendition: "240p")
        let resampler = AudioResampler(outputRate: 44_100)
        var samples: [Int16] = []
        for frame in decoded.audio { samples += try resampler.convert(frame) }
        // About two seconds of stereo at the new rate (the resampler holds back a few samples).
        #expect(abs(samples.count / 2 - 88_200) < 5 * 1024, "\(samples.count / 2) frames")
        let left = stride(from: 0, to: samples.count, by: 2).map { Float(samples[$0]) / 32768 }
        let tones = try Repo.catalog().channels.map { Double($0.audio[0].toneHz) }
        let strongest = tones.max { goertzelPower(left, frequency: $0, sampleRate: 44_100) < goertzelPower(left, frequency: $1, sampleRate: 44_100) }
        #expect(strongest == Double(red.audio[0].toneHz))
    }
}
