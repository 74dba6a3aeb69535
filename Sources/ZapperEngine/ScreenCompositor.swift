import ZapperCore
import ZapperMedia
import ZapperUI

/// The screen of a box: the last video picture (an FFmpeg frame scaled by
/// swscale straight into the display's free buffer), aspect-fitted with black bars,
/// and the overlay (Cairo and Pango) blended on top. The old picture stays until a
/// new one replaces it: a channel change never shows black in between. The picture is
/// kept as its decoded frame, not as a screen-sized copy: a frame whose overlay alone
/// changed scales it again (about what copying a kept 1080p picture costs), and a new
/// picture is not copied at all.
public final class ScreenCompositor: Screen {
    public let output: any FrameOutput
    private let scaler = VideoScaler()
    private var overlay: OverlayRenderer
    /// The picture on screen, and whether the draw buffer holds it (scaled by `show`, not yet presented).
    private var picture: Frame?
    private var pictureInBuffer = false
    private var videoChanged = true

    /// Told the screen's size at the start and at each modeset (`HLSChannelSource`'s `screen`).
    private let size: ScreenSize?

    public init(output: any FrameOutput, tellingSizeTo size: ScreenSize? = nil) {
        self.output = output
        self.size = size
        size?.set(width: output.width, height: output.height)
        overlay = OverlayRenderer(width: output.width, height: output.height)
    }

    /// Fonts, glyphs and panel shadows are made on first use: they are made at the first
    /// `compose`, not on the first key press. Not here: the player's first tick has started the
    /// first tune by then, whose fetches go on meanwhile (in QEMU, measured on 2026-11-29: the
    /// overlay's set-up took 0.94 s of a 4.07 s start before its first tune).
    private var warmedUp = false

    private func warmUp() {
        warmedUp = true
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
        if output.width != overlay.width || output.height != overlay.height { resize() }
        try output.withDrawBuffer { try scaler.draw(frame, into: $0, width: output.width, height: output.height, stride: output.stride) }
        self.picture = frame
        pictureInBuffer = true
        videoChanged = true
    }

    public func clearPicture() {
        guard picture != nil || pictureInBuffer else { return }
        picture = nil
        pictureInBuffer = false
        videoChanged = true
    }

    public func compose(_ layers: [OverlayLayer]) throws -> Bool {
        if output.width != overlay.width || output.height != overlay.height { resize() }
        if !warmedUp { warmUp() }
        overlay.render(layers)
        guard videoChanged || overlay.damage != nil else { return false }
        try output.withDrawBuffer { buffer in
            if !pictureInBuffer { try drawPicture(into: buffer, width: output.width, height: output.height, stride: output.stride) }
            overlay.blend(onto: buffer, width: output.width, height: output.height, stride: output.stride)
        }
        pictureInBuffer = false
        try output.present()
        videoChanged = false
        return true
    }

    /// The display was modeset to another size (a hotplug): picture and overlay at the new
    /// size, never a draw past the buffer.
    private func resize() {
        size?.set(width: output.width, height: output.height)
        overlay = OverlayRenderer(width: output.width, height: output.height)
        pictureInBuffer = false
        videoChanged = true
    }

    /// The kept picture scaled into `buffer` (black before the first).
    private func drawPicture(into buffer: UnsafeMutableRawBufferPointer, width: Int, height: Int, stride: Int) throws {
        if let picture {
            try scaler.draw(picture, into: buffer, width: width, height: height, stride: stride)
        } else {
            buffer.initializeMemory(as: UInt8.self, repeating: 0)
        }
    }

    public func snapshot(to path: String) throws {
        var image = XRGBImage(width: overlay.width, height: overlay.height)
        let (width, height, stride) = (image.width, image.height, image.stride)
        try image.pixels.withUnsafeMutableBytes { buffer in
            try drawPicture(into: buffer, width: width, height: height, stride: stride)
            overlay.blend(onto: buffer, width: width, height: height, stride: stride)
        }
        try PNGWriter.write(pixels: image.pixels, width: image.width, height: image.height, stride: image.stride, to: path)
    }

    /// Of the picture `show` just scaled (read from the draw buffer, before the overlay goes on).
    public var videoLuma: Int {
        guard pictureInBuffer else { return 0 }
        return output.withDrawBuffer { XRGBImage.meanLuma(UnsafeRawBufferPointer($0), width: output.width, height: output.height, stride: output.stride) }
    }

    public var videoSignature: PictureSignature? {
        guard pictureInBuffer else { return nil }
        return output.withDrawBuffer { PictureSignature.of(UnsafeRawBufferPointer($0), width: output.width, height: output.height, stride: output.stride) }
    }
}

/// A picture of a kind the screen does not draw (a backend wired to another's screen).
public struct ScreenError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// FFmpeg's decoded pictures are what this engine's channels deliver.
extension Frame: VideoPicture {}
