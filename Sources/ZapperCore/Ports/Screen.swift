/// The compositor the player draws with: the last video picture fitted to the
/// display, the overlay's layers blended on top, presented on a `FrameOutput`.
/// On a box it scales FFmpeg's pictures and draws the overlay with Cairo
/// (`ZapperEngine`). Used by the frame loop only.
public protocol Screen: AnyObject {
    /// The display it presents on.
    var output: any FrameOutput { get }
    /// How pictures fill the screen, from the next picture on.
    var pictureMode: PictureMode { get set }
    /// Puts a picture on screen at the next `compose`.
    func show(_ picture: any VideoPicture) throws
    /// Black where the picture was, from the next `compose` (a radio channel has none).
    func clearPicture()
    /// Draws and presents a frame when the picture or the overlay changed; true when it did.
    func compose(_ layers: [OverlayLayer]) throws -> Bool
    /// What the screen shows now, as a PNG at `path`.
    func snapshot(to path: String) throws
    /// Mean brightness of the picture the last `show` put up (0…255; for `--trace-frames`),
    /// read between that `show` and the next `compose`.
    var videoLuma: Int { get }
    /// A cheap fingerprint of the picture the last `show` put up, without the overlay
    /// (`PictureWatch`), read between that `show` and the next `compose`; nil otherwise.
    var videoSignature: PictureSignature? { get }
}
