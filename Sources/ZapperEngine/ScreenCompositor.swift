import ZapperCore
import ZapperMedia
import ZapperUI

/// The screen of a box: the last video picture (an FFmpeg frame scaled by
/// swscale), aspect-fitted with black bars, and the overlay (Cairo and Pango)
/// blended on top, drawn whole into the display's free buffer. The old picture
/// stays until a new one replaces it: a channel change never shows black in between.
public final class ScreenCompositor: Screen {
    public let output: any FrameOutput
    private var video: XRGBImage
    private let scaler = VideoScaler()
    private var overlay: OverlayRenderer
    private var videoChanged = true

    public init(output: any FrameOutput) {
        self.output = output
        video = XRGBImage(width: output.width, height: output.height)
        overlay = OverlayRenderer(width: output.width, height: output.height)
        // Fonts, glyphs and panel shadows are made on first use: make them now,
        // not on the first key press.
        let sample = ChannelIdentity(number: 0, name: "Zapper")
        overlay.render([.logoBug(sample, appearance: 1), .banner(ChannelBanner(channel: sample), appearance: 1),
                        .interstitial(InterstitialCard(channel: sample, status: .loading(spinnerPhase: 0)), appearance: 1),
                        .interstitial(InterstitialCard(channel: sample, status: .failed(reason: "-", retryInSeconds: 1)), appearance: 0.5),
                        .digits(DigitEntry(digits: [1]), appearance: 1)])
        overlay.render([])
    }

    public var pictureMode: PictureMode {
        get { scaler.mode }
        set { scaler.mode = newValue }
    }

    public func show(_ picture: any VideoPicture) throws {
        guard let frame = picture as? Frame else { throw ScreenError("a picture this screen cannot draw: \(type(of: picture))") }
        try scaler.draw(frame, into: &video)
        videoChanged = true
    }

    public func compose(_ layers: [OverlayLayer]) throws -> Bool {
        if output.width != video.width || output.height != video.height { resize() }
        overlay.render(layers)
        guard videoChanged || overlay.damage != nil else { return false }
        output.withDrawBuffer { buffer in draw(into: buffer, stride: output.stride) }
        try output.present()
        videoChanged = false
        return true
    }

    /// The display was modeset to another size (a hotplug): picture and overlay at the new
    /// size; black until the next picture (a few tens of milliseconds), never a draw past the buffer.
    private func resize() {
        video = XRGBImage(width: output.width, height: output.height)
        overlay = OverlayRenderer(width: output.width, height: output.height)
        videoChanged = true
    }

    public func snapshot(to path: String) throws {
        var image = XRGBImage(width: video.width, height: video.height)
        image.pixels.withUnsafeMutableBytes { draw(into: $0, stride: image.stride) }
        try PNGWriter.write(pixels: image.pixels, width: image.width, height: image.height, stride: image.stride, to: path)
    }

    private func draw(into buffer: UnsafeMutableRawBufferPointer, stride: Int) {
        let rowBytes = video.width * 4
        video.pixels.withUnsafeBytes { source in
            if stride == video.stride {
                buffer.baseAddress!.copyMemory(from: source.baseAddress!, byteCount: min(buffer.count, source.count))
            } else {
                for row in 0..<video.height {
                    (buffer.baseAddress! + row * stride).copyMemory(from: source.baseAddress! + row * video.stride, byteCount: rowBytes)
                }
            }
        }
        overlay.blend(onto: buffer, width: video.width, height: video.height, stride: stride)
    }

    public var videoLuma: Int { video.meanLuma() }

    public var videoSignature: PictureSignature? {
        video.pixels.withUnsafeBytes { PictureSignature.of($0, width: video.width, height: video.height, stride: video.stride) }
    }
}

/// A picture of a kind the screen does not draw (a backend wired to another's screen).
public struct ScreenError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// FFmpeg's decoded pictures are what this engine's channels deliver.
extension Frame: VideoPicture {}
