import ZapperCore
import ZapperMedia
import ZapperUI

/// The compositor: the last video picture, aspect-fitted with
/// black bars, and the UI overlay blended on top, drawn whole into the
/// display's free buffer. The old picture stays until a new one replaces it:
/// a channel change never shows black in between.
final class Screen {
    let output: FrameOutput
    private var video: XRGBImage
    private let scaler = VideoScaler()
    private var overlay: OverlayRenderer
    private var videoChanged = true

    init(output: FrameOutput) {
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

    /// How pictures fill the screen, from the next picture on.
    var pictureMode: PictureMode {
        get { scaler.mode }
        set { scaler.mode = newValue }
    }

    /// Puts a decoded picture on screen at the next `compose`.
    func show(_ frame: Frame) throws {
        try scaler.draw(frame, into: &video)
        videoChanged = true
    }

    /// Draws and presents a frame when the picture or the overlay changed; true when it did.
    func compose(_ layers: [OverlayLayer]) throws -> Bool {
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

    /// What the screen shows now (picture and overlay), as a PNG.
    func snapshot(to path: String) throws {
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

    /// Mean brightness of the picture (for `--trace-frames`).
    var videoLuma: Int { video.meanLuma() }
}
