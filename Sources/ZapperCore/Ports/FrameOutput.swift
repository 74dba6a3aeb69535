/// The surface the player draws a frame into and shows at the next vblank: the
/// KMS display on a box, the offscreen display in tests and benchmarks.
///
/// The frame loop: `withDrawBuffer` (draw a whole frame: the buffer's old contents
/// are undefined), `present()`, then `waitForFlip` until it returns a time, and
/// only then `present()` again.
public protocol FrameOutput: AnyObject {
    /// Size of the picture in pixels; may change after a hotplug re-modeset.
    var width: Int { get }
    var height: Int { get }
    /// Bytes per row of the draw buffer (XRGB8888, 4 bytes a pixel, maybe padded).
    var stride: Int { get }
    /// Lends the buffer to draw the next frame into: never the one being scanned out.
    func withDrawBuffer<R>(_ body: (UnsafeMutableRawBufferPointer) throws -> R) rethrows -> R
    /// Queues the drawn buffer for the next vblank and returns at once.
    /// Throws when the previous flip has not completed yet.
    func present() throws
    /// Waits up to `timeoutMilliseconds` for the queued flip; returns the time it
    /// hit the screen in seconds (CLOCK_MONOTONIC), or nil on timeout.
    func waitForFlip(timeoutMilliseconds: Int) throws -> Double?
    /// When the last completed flip hit the screen (CLOCK_MONOTONIC seconds).
    var lastFlipTime: Double? { get }
    /// Acts on what happened to the display since the last call (a VT switch, a
    /// hotplug); called by the loop every tick, also when nothing is drawn.
    func serviceEvents()
    /// Switches to a mode of this size whose refresh suits `pictureRate` (`RefreshMatch`); the
    /// mode switched to, or nil when none was (a display that cannot, or needs not).
    func matchRefresh(toPictureRate pictureRate: Double) -> String?
    /// The refresh period of the mode shown, seconds (nil: not known; `PictureDue` then uses
    /// the period learnt from flips).
    var refreshPeriod: Double? { get }
}

extension FrameOutput {
    public func serviceEvents() {}
    public func matchRefresh(toPictureRate pictureRate: Double) -> String? { nil }
    public var refreshPeriod: Double? { nil }
}
