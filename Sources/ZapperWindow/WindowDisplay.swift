import CSDL2
import Glibc
import ZapperCore

/// A window on the desktop (SDL2: X11 or Wayland) showing exactly what the
/// compositor draws: the XRGB8888 frame, at the size chosen at start, scaled to
/// the window with its aspect kept (black bars). The window is resizable; the
/// frame's size never changes with it. The window's keyboard is an input:
/// `onKey` gets its presses and releases with the kernel's key names.
///
/// SDL wants every call on one thread: the one that creates the window. zapper
/// creates it on its main thread, which then runs the player's frame loop
/// (`present`, `waitForFlip`, `serviceEvents`); a call from another thread traps.
public final class WindowDisplay: FrameOutput {
    public let width: Int
    public let height: Int
    public let stride: Int
    /// The video driver and the display it opened on, e.g. "x11 :0", "wayland wayland-0".
    public let session: String
    public private(set) var lastFlipTime: Double?
    /// Where the window's keys go (set by the owner before the frame loop starts).
    public var onKey: (@Sendable (KeyEvent) -> Void)?
    /// Called once when the window is closed; by default the process gets SIGTERM,
    /// which the player turns into a clean stop (`Player.stopOnSignals`).
    public var onClose: () -> Void = { _ = raise(SIGTERM) }

    private let sdl: SDLLibrary
    private let window: OpaquePointer
    private let renderer: OpaquePointer
    private let texture: OpaquePointer
    private let owner = pthread_self()
    private var pixels: [UInt8]
    private var keys = WindowKeys()
    private var queued = false
    private var closed = false
    /// Minimized or hidden: nothing is drawn (a driver may block a vsynced present to a hidden
    /// window), and flips keep to the refresh rate by the clock.
    private var hidden = false
    /// The display's refresh period: flips never come closer together than this.
    private let period: Double

    /// The desktop session in the environment (WAYLAND_DISPLAY, else DISPLAY), or nil.
    public static var desktopSession: String? {
        for name in ["WAYLAND_DISPLAY", "DISPLAY"] {
            if let value = getenv(name).map({ String(cString: $0) }), !value.isEmpty { return value }
        }
        return nil
    }

    /// Opens a window showing a `width`×`height` picture; throws when there is no
    /// desktop session or SDL cannot open a window on it.
    public init(width: Int, height: Int, title: String = "Zapper") throws(WindowError) {
        guard Self.desktopSession != nil else { throw .noDesktopSession }
        let sdl = try SDLLibrary.open()
        self.sdl = sdl
        // The player handles SIGINT and SIGTERM itself; smooth scaling of the picture.
        _ = sdl.setHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1")
        _ = sdl.setHint(SDL_HINT_RENDER_SCALE_QUALITY, "linear")
        _ = sdl.setHint(SDL_HINT_APP_NAME, title)
        try Self.initVideo(sdl)
        var made: (window: OpaquePointer?, renderer: OpaquePointer?) = (nil, nil)
        do throws(WindowError) {
            let size = Self.fitted(width: width, height: height, sdl)
            let centred = zapper_sdl_windowpos_centered()
            guard let window = sdl.createWindow(title, centred, centred, Int32(size.width), Int32(size.height),
                                                SDL_WINDOW_RESIZABLE.rawValue | SDL_WINDOW_ALLOW_HIGHDPI.rawValue) else {
                throw WindowError.sdl("SDL_CreateWindow")
            }
            made.window = window
            // Vsync where the driver has it; `waitForFlip` keeps the others to the refresh rate.
            guard let renderer = sdl.createRenderer(window, -1, SDL_RENDERER_PRESENTVSYNC.rawValue) else {
                throw WindowError.sdl("SDL_CreateRenderer")
            }
            made.renderer = renderer
            try WindowError.check(sdl.renderSetLogicalSize(renderer, Int32(width), Int32(height)), "SDL_RenderSetLogicalSize")
            guard let texture = sdl.createTexture(renderer, SDL_PIXELFORMAT_XRGB8888.rawValue,
                                                  Int32(SDL_TEXTUREACCESS_STREAMING.rawValue), Int32(width), Int32(height)) else {
                throw WindowError.sdl("SDL_CreateTexture")
            }
            self.window = window
            self.renderer = renderer
            self.texture = texture
        } catch {
            if let renderer = made.renderer { sdl.destroyRenderer(renderer) }
            if let window = made.window { sdl.destroyWindow(window) }
            sdl.quitSubSystem(SDL_INIT_VIDEO)
            throw error
        }
        self.width = width
        self.height = height
        stride = width * 4
        pixels = [UInt8](repeating: 0, count: width * 4 * height)
        let driver = sdl.getCurrentVideoDriver().map { String(cString: $0) } ?? "sdl"
        let name = driver == "wayland" ? "WAYLAND_DISPLAY" : "DISPLAY"
        session = "\(driver) \(getenv(name).map { String(cString: $0) } ?? "")"
        var mode = SDL_DisplayMode()
        let hz = sdl.getWindowDisplayMode(window, &mode) == 0 && mode.refresh_rate > 0 ? Double(mode.refresh_rate) : 60
        period = 1 / hz
        // Black until the first frame, and in front with the keyboard; keys are keys, not text.
        sdl.raiseWindow(window)
        sdl.stopTextInput()
        try upload()
        try draw()
    }

    deinit {
        sdl.destroyTexture(texture)
        sdl.destroyRenderer(renderer)
        sdl.destroyWindow(window)
        sdl.quitSubSystem(SDL_INIT_VIDEO)
    }

    /// SDL's video on the desktop itself: X11 (where DISPLAY is set; Xwayland too) or Wayland,
    /// never one of SDL's fallbacks that shows nothing (offscreen, KMS). SDL_VIDEODRIVER, when set,
    /// is the user's choice and SDL follows it.
    private static func initVideo(_ sdl: SDLLibrary) throws(WindowError) {
        var drivers: [String] = []
        if getenv("SDL_VIDEODRIVER") != nil {
            drivers = ["(SDL_VIDEODRIVER)"]
        } else {
            if let value = getenv("DISPLAY"), value.pointee != 0 { drivers.append("x11") }
            if let value = getenv("WAYLAND_DISPLAY"), value.pointee != 0 { drivers.append("wayland") }
        }
        var failures: [String] = []
        for driver in drivers {
            if !driver.hasPrefix("(") { _ = sdl.setHint(SDL_HINT_VIDEODRIVER, driver) }
            if sdl.initSubSystem(SDL_INIT_VIDEO) == 0 { return }
            failures.append(sdl.lastError)
        }
        throw .sdl(call: "SDL_Init(video)", message: failures.joined(separator: "; "))
    }

    /// The window's first size: the picture's, shrunk to fit the desktop if it is larger.
    private static func fitted(width: Int, height: Int, _ sdl: SDLLibrary) -> (width: Int, height: Int) {
        var bounds = SDL_Rect()
        guard sdl.getDisplayUsableBounds(0, &bounds) == 0, bounds.w > 0, bounds.h > 0 else { return (width, height) }
        let scale = min(1, Double(bounds.w) / Double(width), Double(bounds.h) / Double(height))
        return (max(1, Int(Double(width) * scale)), max(1, Int(Double(height) * scale)))
    }

    public func withDrawBuffer<R>(_ body: (UnsafeMutableRawBufferPointer) throws -> R) rethrows -> R {
        try pixels.withUnsafeMutableBytes { try body($0) }
    }

    /// Copies the drawn frame into the window's texture; it is shown at `waitForFlip`.
    public func present() throws {
        checkThread()
        guard !queued else { throw WindowError.flipPending }
        try upload()
        queued = true
    }

    private func upload() throws(WindowError) {
        let code = pixels.withUnsafeBytes { sdl.updateTexture(texture, nil, $0.baseAddress, Int32(stride)) }
        try WindowError.check(code, "SDL_UpdateTexture")
    }

    /// Shows the queued frame (at the display's vblank where the driver syncs) and
    /// returns when it did (CLOCK_MONOTONIC seconds); flips at most at the refresh rate.
    public func waitForFlip(timeoutMilliseconds: Int) throws -> Double? {
        checkThread()
        guard queued else { return nil }
        if !hidden { try draw() }
        var flip = Self.monotonic()
        if let last = lastFlipTime, flip < last + period * 0.9 {
            // Back sooner than a refresh: no real vsync here. Keep to the refresh rate.
            let due = last + period
            if due - flip > Double(timeoutMilliseconds) / 1000 { return nil }
            usleep(useconds_t((due - flip) * 1_000_000))
            flip = due
        }
        queued = false
        lastFlipTime = flip
        return flip
    }

    /// The window's events: keys to `onKey`, a redraw when it was uncovered or
    /// resized, and `onClose` when it is closed.
    public func serviceEvents() {
        checkThread()
        var event = SDL_Event()
        var redraw = false
        while sdl.pollEvent(&event) != 0 {
            switch event.type {
            case SDL_QUIT.rawValue:
                close()
            case SDL_KEYDOWN.rawValue, SDL_KEYUP.rawValue:
                let key = event.key
                if let translated = keys.key(scancode: key.keysym.scancode.rawValue, down: event.type == SDL_KEYDOWN.rawValue,
                                             isRepeat: key.repeat != 0) {
                    onKey?(translated)
                }
            case SDL_WINDOWEVENT.rawValue:
                switch UInt32(event.window.event) {
                case SDL_WINDOWEVENT_EXPOSED.rawValue, SDL_WINDOWEVENT_SIZE_CHANGED.rawValue:
                    redraw = true
                case SDL_WINDOWEVENT_SHOWN.rawValue, SDL_WINDOWEVENT_RESTORED.rawValue, SDL_WINDOWEVENT_MAXIMIZED.rawValue:
                    hidden = false
                    redraw = true
                case SDL_WINDOWEVENT_HIDDEN.rawValue, SDL_WINDOWEVENT_MINIMIZED.rawValue:
                    hidden = true
                case SDL_WINDOWEVENT_FOCUS_LOST.rawValue:
                    for release in keys.releaseAll() { onKey?(release) }
                case SDL_WINDOWEVENT_CLOSE.rawValue:
                    close()
                default:
                    break
                }
            default:
                break
            }
        }
        // The last frame again (a queued one is drawn at its flip anyway).
        if redraw, !queued, !hidden { try? draw() }
    }

    private func close() {
        guard !closed else { return }
        closed = true
        onClose()
    }

    /// The texture scaled into the window, black bars around it, presented.
    private func draw() throws(WindowError) {
        try WindowError.check(sdl.setRenderDrawColor(renderer, 0, 0, 0, 255), "SDL_SetRenderDrawColor")
        try WindowError.check(sdl.renderClear(renderer), "SDL_RenderClear")
        try WindowError.check(sdl.renderCopy(renderer, texture, nil, nil), "SDL_RenderCopy")
        sdl.renderPresent(renderer)
    }

    private func checkThread() {
        precondition(pthread_equal(owner, pthread_self()) != 0, "WindowDisplay: SDL calls must stay on the thread that opened the window")
    }

    static func monotonic() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
