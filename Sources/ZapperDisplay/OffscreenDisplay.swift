import Dispatch
import Glibc
import ZapperCore

/// The offscreen display: the KMS display's frame loop, into memory. Two
/// buffers, a "flip" at each 60 Hz tick of the monotonic clock; the shown
/// buffer is what snapshots and benchmarks look at.
public final class OffscreenDisplay: FrameOutput {
    public let width: Int
    public let height: Int
    public let stride: Int
    public let refreshHz: Double
    public var refreshPeriod: Double? { refreshHz > 0 ? 1 / refreshHz : nil }
    private var buffers: [[UInt8]]
    private var shown = 0
    private var queued = false
    private var nextVBlank: Double
    public private(set) var lastFlipTime: Double?
    /// A virtual clock (a behaviour test): flips happen on its time, never waited for.
    private let virtualClock: (any PlayerClock)?

    /// `clock`: a virtual clock to flip on; nil: the system's, waiting for each tick.
    public init(width: Int, height: Int, refreshHz: Double = 60, clock: (any PlayerClock)? = nil) {
        self.width = width
        self.height = height
        self.refreshHz = refreshHz
        virtualClock = clock
        stride = width * 4
        buffers = [[UInt8]](repeating: [UInt8](repeating: 0, count: width * 4 * height), count: 2)
        nextVBlank = clock?.monotonic ?? Self.monotonic()
    }

    static func monotonic() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    public func withDrawBuffer<R>(_ body: (UnsafeMutableRawBufferPointer) throws -> R) rethrows -> R {
        try buffers[1 - shown].withUnsafeMutableBytes { try body($0) }
    }

    public func present() throws {
        guard !queued else { throw Errno(EBUSY, operation: "offscreen present: the last frame has not been shown yet") }
        queued = true
    }

    public func waitForFlip(timeoutMilliseconds: Int) throws -> Double? {
        guard queued else { return nil }
        let now = virtualClock?.monotonic ?? Self.monotonic()
        if nextVBlank < now { nextVBlank = now }  // late: the next tick is now, no burst of catch-up
        if nextVBlank - now > Double(timeoutMilliseconds) / 1000 { return nil }
        let wait = nextVBlank - now
        if wait > 0, virtualClock == nil { usleep(useconds_t(wait * 1_000_000)) }
        shown = 1 - shown
        queued = false
        let flipped = nextVBlank
        lastFlipTime = flipped
        nextVBlank = flipped + 1 / refreshHz
        return flipped
    }

    /// The pixels on screen now (XRGB8888, `stride` bytes per row).
    public var shownPixels: [UInt8] { buffers[shown] }
}
