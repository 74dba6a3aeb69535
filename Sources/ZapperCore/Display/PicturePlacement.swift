/// Where a picture goes on screen in a picture mode: the part of the source
/// that is shown (`crop`, in source pixels) and where it lands (`box`, in
/// screen pixels, even-aligned and centred).
///
/// The rules:
/// - A picture's shape is its coded size times its sample aspect ratio (SAR): 720x576 with
///   SAR 64:45 is a 16:9 picture, with 16:15 a 4:3 one; 1440x1080 with 4:3 is 16:9. Square
///   pixels (SAR 1) are the default, and a SAR that is no positive number, or wider than 4:1
///   either way, is taken as square (no broadcaster sends one; a hostile stream may).
/// - Fit shows the whole picture at that shape, with black bars on two sides where the
///   screen's shape differs; Fill covers the screen, cropping the picture's overflow evenly;
///   Zoom magnifies Fill by `zoomFactor` (a 4:3 picture with its bars burnt in).
/// - Boxes and crops are whole pixels, even (chroma is subsampled), inside screen and source.
public struct PicturePlacement: Sendable, Equatable {
    public var crop: (x: Int, y: Int, width: Int, height: Int)
    public var box: (x: Int, y: Int, width: Int, height: Int)

    public static func == (a: Self, b: Self) -> Bool { a.crop == b.crop && a.box == b.box }

    /// How much further than fill the zoom mode magnifies.
    public static let zoomFactor = 4.0 / 3.0
    /// The widest SAR taken as given, either way.
    public static let widestSampleAspect = 4.0

    /// `sampleAspect`: the SAR as a number (width of a pixel over its height).
    public init(mode: PictureMode, source: (width: Int, height: Int), target: (width: Int, height: Int),
                sampleAspect: Double = 1) {
        guard source.width > 0, source.height > 0, target.width > 0, target.height > 0 else {
            crop = (0, 0, max(source.width, 0), max(source.height, 0))
            box = (0, 0, target.width, target.height)
            return
        }
        let sar = Self.usable(sampleAspect)
        // The picture's width as shown, in source rows' units.
        let shownWidth = Double(source.width) * sar
        let scaleX = Double(target.width) / shownWidth
        let scaleY = Double(target.height) / Double(source.height)
        switch mode {
        case .fit:
            let scale = min(scaleX, scaleY)
            let width = min(target.width, Int((shownWidth * scale).rounded()) & ~1)
            let height = min(target.height, Int((Double(source.height) * scale).rounded()) & ~1)
            crop = (0, 0, source.width, source.height)
            box = ((target.width - width) / 2, (target.height - height) / 2, width, height)
        case .fill, .zoom:
            let scale = max(scaleX, scaleY) * (mode == .zoom ? Self.zoomFactor : 1)
            // The source part that covers the screen at that scale, even-aligned for chroma.
            let width = min(source.width, Int((Double(target.width) / scale / sar).rounded()) & ~1)
            let height = min(source.height, Int((Double(target.height) / scale).rounded()) & ~1)
            crop = (((source.width - width) / 2) & ~1, ((source.height - height) / 2) & ~1, max(width, 2), max(height, 2))
            box = (0, 0, target.width, target.height)
        }
    }

    /// `sampleAspect` if it is one to take, else 1.
    static func usable(_ sampleAspect: Double) -> Double {
        guard sampleAspect.isFinite, sampleAspect >= 1 / widestSampleAspect, sampleAspect <= widestSampleAspect else { return 1 }
        return sampleAspect
    }
}
