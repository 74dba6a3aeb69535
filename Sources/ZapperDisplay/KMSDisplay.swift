import CDRM
import Glibc
import ZapperCore

/// Zapper's screen on a real box: atomic KMS, one XRGB8888 primary plane
/// double-buffered with non-blocking page flips, the previous display state and
/// the VT handed back on exit.
///
/// Not thread-safe: the event loop that owns the screen calls everything.
public final class KMSDisplay: FrameOutput {
    public struct Options: Sendable {
        /// `--drm-device`; nil: the first card with a connected connector.
        public var device: String?
        /// `--connector`; nil: the first connected one.
        public var connector: String?
        /// `--mode`; nil: the connector's preferred mode.
        public var mode: ModeRequest?
        /// Put the active VT into graphics mode (and back on exit).
        public var useVT = true
        /// Take part in VT switches (Ctrl+Alt+Fn): VT_PROCESS mode, the release and
        /// acquire signals of `VTSwitchSignals` (installed by the display).
        public var handleVTSwitches = true
        /// Re-read the connectors on display hotplug uevents (`HotplugMonitor`).
        public var watchHotplug = true

        public init(device: String? = nil, connector: String? = nil, mode: ModeRequest? = nil) {
            self.device = device
            self.connector = connector
            self.mode = mode
        }
    }

    /// active: ours and presenting; dark: ours, but no display is attached (frames are
    /// paced, not shown); suspended: switched away to another VT (master dropped);
    /// closed: handed back for good.
    enum State { case active, dark, suspended, closed }

    public let options: Options
    public let device: KMSDevice
    public internal(set) var modeChoice: ModeChoice
    /// The plane assignment in use (today always the software-composited primary plane).
    public internal(set) var plan: PlanePlan
    /// The active VT in graphics mode, if that worked.
    public let terminal: VirtualTerminal?

    let log: (String) -> Void
    var state = State.active
    var buffers: [DumbBuffer]
    /// The buffer on screen; the other one is drawn into (unless a flip to it is pending).
    var front = 0
    /// The buffer whose flip was queued and has not completed.
    var pending: Int?
    var shadow: UnsafeMutableRawBufferPointer?
    var drewIntoShadow = false
    var modeBlob: UInt32 = 0
    var saved: KMSSavedState?
    let hotplug: HotplugMonitor?
    let flip = FlipEvent()
    public private(set) var lastFlipTime: Double?

    /// Finds and opens the device, becomes DRM master, sets the VT to graphics mode,
    /// chooses connector, mode and planes (logging the choice once), saves the
    /// current state and modesets to a black frame.
    public init(options: Options = Options(), log: @escaping (String) -> Void) throws {
        self.options = options
        self.log = log
        let (device, description, choice) = try Self.openDevice(options)
        try device.becomeMaster()
        self.device = device
        self.modeChoice = choice
        terminal = options.useVT ? VirtualTerminal.enterGraphics(log: log) : nil
        hotplug = options.watchHotplug ? Self.openHotplugMonitor(log: log) : nil
        do {
            plan = try Self.choosePlanes(device: device, description: description, choice: choice, log: log)
            buffers = try Self.makeBuffers(device: device, mode: choice.mode)
            saved = KMSSavedState.capture(device, crtcs: Array(Set([plan.crtcID] + (choice.connector.currentCRTC.map { [$0] } ?? []))),
                                          connector: choice.connector.id, planes: plan.layers.map(\.planeID) + plan.disabledPlanes)
            try modeset()
        } catch {
            terminal?.restore()
            throw error
        }
        if options.handleVTSwitches, let terminal { Self.enableVTSwitching(terminal, log: log) }
        log("display: \(device.path) (\(device.driverName)) \(choice.connector.name) \(choice.mode)"
            + (device.prefersShadow ? ", drawing through a shadow buffer" : ""))
    }

    deinit {
        restore()
        if let shadow { shadow.deallocate() }
        device.destroyBlob(modeBlob)
    }

    /// The DRM fd, for the event loop's poll set: readable when a flip completed.
    public var fileDescriptor: Int32 { device.fd }

    /// Whether frames reach the screen now: false while switched to another VT or
    /// while no display is attached (the frame loop goes on, paced at 60 Hz).
    public var isPresenting: Bool { state == .active }

    // MARK: FrameOutput

    public var width: Int { modeChoice.mode.width }
    public var height: Int { modeChoice.mode.height }
    public var refreshPeriod: Double? { modeChoice.mode.refreshMilliHz > 0 ? 1000 / Double(modeChoice.mode.refreshMilliHz) : nil }
    public var stride: Int { buffers[0].stride }

    public func withDrawBuffer<R>(_ body: (UnsafeMutableRawBufferPointer) throws -> R) rethrows -> R {
        serviceEvents()
        let count = stride * height
        // Both dumb buffers are busy while a flip is pending (one on screen, one queued):
        // draw into RAM then and copy at present(); likewise when the driver prefers it.
        if device.prefersShadow || pending != nil || state != .active {
            if shadow == nil || shadow!.count != count {
                shadow?.deallocate()
                shadow = .allocate(byteCount: count, alignment: 64)
            }
            drewIntoShadow = true
            return try body(shadow!)
        }
        drewIntoShadow = false
        return try body(UnsafeMutableRawBufferPointer(rebasing: buffers[1 - front].memory![0..<count]))
    }

    public func present() throws {
        guard pending == nil else { throw KMSError.flipPending }
        let back = 1 - front
        guard state == .active else {
            pending = back  // paced by waitForFlip like a vblank while the screen is not ours
            return
        }
        if drewIntoShadow, let shadow {
            buffers[back].memory!.baseAddress!.copyMemory(from: shadow.baseAddress!, byteCount: shadow.count)
        }
        let request = try AtomicRequest(device: device)
        try request.setPlane(plan.layers[0].planeID, "FB_ID", UInt64(buffers[back].framebufferID))
        flip.arrived = false
        try request.commitOrThrow(flags: UInt32(DRM_MODE_PAGE_FLIP_EVENT) | UInt32(DRM_MODE_ATOMIC_NONBLOCK),
                                  userData: Unmanaged.passUnretained(flip).toOpaque(), operation: "page flip")
        pending = back
    }

    public func waitForFlip(timeoutMilliseconds: Int) throws -> Double? {
        serviceEvents()
        guard let target = pending else { return nil }
        guard state == .active else {
            // No vblank to wait for: sleep to the next 60 Hz tick.
            let now = Self.monotonicNow(), period = 1.0 / 60
            let next = ((lastFlipTime ?? now) + period > now) ? (lastFlipTime ?? now) + period : now
            let wait = next - now
            if wait * 1000 > Double(timeoutMilliseconds) { return nil }
            if wait > 0 { usleep(UInt32(wait * 1_000_000)) }
            pending = nil  // the buffers did not change: the frame is in the shadow buffer
            lastFlipTime = next
            return next
        }
        return try waitForQueuedFlip(target, timeoutMilliseconds: timeoutMilliseconds)
    }

    /// Waits for the page-flip event of the commit that queued `target`.
    func waitForQueuedFlip(_ target: Int, timeoutMilliseconds: Int) throws -> Double? {
        let deadline = Self.monotonicNow() + Double(timeoutMilliseconds) / 1000
        while true {
            let remaining = max(0, Int(((deadline - Self.monotonicNow()) * 1000).rounded(.up)))
            var descriptor = pollfd(fd: device.fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(clamping: remaining))
            if ready < 0 {
                if errno == EINTR { continue }
                throw Errno(operation: "poll the DRM device")
            }
            if ready == 0 { return nil }
            var context = drmEventContext()
            context.version = 3
            context.page_flip_handler2 = { _, _, seconds, microseconds, _, userData in
                guard let userData else { return }
                let event = Unmanaged<FlipEvent>.fromOpaque(userData).takeUnretainedValue()
                event.seconds = seconds
                event.microseconds = microseconds
                event.arrived = true
            }
            guard drmHandleEvent(device.fd, &context) == 0 else { throw Errno(operation: "read DRM events") }
            if flip.arrived {
                return completeFlip(target, at: Double(flip.seconds) + Double(flip.microseconds) / 1_000_000)
            }
            if remaining == 0 { return nil }
        }
    }

    private func completeFlip(_ buffer: Int, at time: Double) -> Double {
        front = buffer
        pending = nil
        lastFlipTime = time
        return time
    }

    static func monotonicNow() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    // MARK: Hand-back

    /// Hands the screen back: waits out a queued flip, restores the saved CRTC/plane
    /// state and the VT mode. For exit, SIGTERM/SIGINT and fatal errors; idempotent.
    public func restore() {
        guard state != .closed else { return }
        if state == .active || state == .dark { restoreSavedState() }
        state = .closed
        terminal?.restore()
    }

    func restoreSavedState() {
        settleFlip()
        do {
            try saved?.restore(device)
        } catch {
            log("display: \(error) (the console takes the screen back when Zapper closes the device)")
        }
    }
}

/// Where the page-flip handler leaves the timestamp (the commit's user data).
final class FlipEvent {
    var arrived = false
    var seconds: UInt32 = 0
    var microseconds: UInt32 = 0
}
