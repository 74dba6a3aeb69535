import CDRM
import Glibc
import ZapperCore

extension KMSDisplay {
    /// The device, its description and the connector/mode choice: `--drm-device`,
    /// else the first card where a connector (the named one) is connected.
    static func openDevice(_ options: Options) throws -> (KMSDevice, KMSDescription, ModeChoice) {
        func attempt(_ path: String) throws -> (KMSDevice, KMSDescription, ModeChoice) {
            let device = try KMSDevice(path: path)
            let description = try device.describe()
            let choice = try ModeChoice.choose(in: description, device: path, connector: options.connector, mode: options.mode)
            return (device, description, choice)
        }
        if let path = options.device { return try attempt(path) }
        let paths = KMSDevices.cardPaths()
        guard !paths.isEmpty else {
            throw KMSError.noDevice(tried: KMSDevices.kernelHasDRM ? "no /dev/dri/card* on this machine" : "no DRM driver in the kernel and no /dev/dri/card*")
        }
        var firstError: (any Error)?
        for path in paths {
            do { return try attempt(path) } catch { firstError = firstError ?? error }
        }
        throw firstError!
    }

    /// Walks the plane ladder with real TEST_ONLY commits and logs the outcome once.
    /// The player composites in software today, so when rung (a) is available it is
    /// reported and rung (b) is used.
    static func choosePlanes(device: KMSDevice, description: KMSDescription, choice: ModeChoice,
                             log: (String) -> Void) throws -> PlanePlan {
        func test(_ plan: PlanePlan) -> Bool {
            do {
                try testCommit(device: device, plan: plan, choice: choice)
                return true
            } catch {
                let planes = plan.layers.map { "\(FourCC.name($0.format)) on plane \($0.planeID)" }.joined(separator: " + ")
                log("display: not usable: \(planes) on CRTC \(plan.crtcID) (\(error))")
                return false
            }
        }
        let best = try PlaneLadder.choose(in: description, for: choice, test: test)
        guard best.plan.step != .softwareComposite else {
            log("display: \(best.description)")
            return best.plan
        }
        for crtc in [best.plan.crtcID] + description.crtcs(for: choice.connector) {
            if let plan = PlaneLadder.softwarePlan(description, crtc: crtc, choice: choice), test(plan) {
                log("display: \(best.description) is available; the player composites in software, so: one XRGB8888 primary plane \(plan.layers[0].planeID)")
                return plan
            }
        }
        throw KMSError.noPlaneConfiguration(connector: choice.connector.name, mode: choice.mode.description)
    }

    /// Proves a plan with DRM_MODE_ATOMIC_TEST_ONLY, with throw-away framebuffers
    /// of each layer's format and size; throws why it is not usable.
    static func testCommit(device: KMSDevice, plan: PlanePlan, choice: ModeChoice) throws {
        let framebuffers = try plan.layers.map {
            try DumbBuffer(fd: device.fd, width: $0.sourceWidth, height: $0.sourceHeight, format: $0.format, map: false)
        }
        let info = try modeInfo(device: device, choice: choice)
        let blob = try device.createModeBlob(info)
        defer { device.destroyBlob(blob) }
        let request = try AtomicRequest(device: device)
        try fill(request, plan: plan, modeBlob: blob, framebuffers: framebuffers.map(\.framebufferID))
        // The framebuffers must outlive the commit (their deinit removes them).
        try withExtendedLifetime(framebuffers) {
            try request.commitOrThrow(flags: UInt32(DRM_MODE_ATOMIC_TEST_ONLY) | UInt32(DRM_MODE_ATOMIC_ALLOW_MODESET),
                                      operation: "TEST_ONLY commit")
        }
    }

    /// The full state of a plan: connector → CRTC (mode, active), each layer's plane
    /// with its framebuffer and rectangles, the CRTC's other planes off.
    static func fill(_ request: AtomicRequest, plan: PlanePlan, modeBlob: UInt32, framebuffers: [UInt32]) throws {
        try request.setConnector(plan.connectorID, "CRTC_ID", UInt64(plan.crtcID))
        try request.setCRTC(plan.crtcID, "MODE_ID", UInt64(modeBlob))
        try request.setCRTC(plan.crtcID, "ACTIVE", 1)
        for (layer, framebuffer) in zip(plan.layers, framebuffers) {
            try request.setPlane(layer.planeID, "FB_ID", UInt64(framebuffer))
            try request.setPlane(layer.planeID, "CRTC_ID", UInt64(plan.crtcID))
            // Source rectangle in 16.16 fixed point; destination in pixels.
            try request.setPlane(layer.planeID, "SRC_X", 0)
            try request.setPlane(layer.planeID, "SRC_Y", 0)
            try request.setPlane(layer.planeID, "SRC_W", UInt64(layer.sourceWidth) << 16)
            try request.setPlane(layer.planeID, "SRC_H", UInt64(layer.sourceHeight) << 16)
            try request.setPlane(layer.planeID, "CRTC_X", UInt64(bitPattern: Int64(layer.x)))
            try request.setPlane(layer.planeID, "CRTC_Y", UInt64(bitPattern: Int64(layer.y)))
            try request.setPlane(layer.planeID, "CRTC_W", UInt64(layer.width))
            try request.setPlane(layer.planeID, "CRTC_H", UInt64(layer.height))
        }
        for plane in plan.disabledPlanes {
            try request.setPlane(plane, "FB_ID", 0)
            try request.setPlane(plane, "CRTC_ID", 0)
        }
    }

    static func modeInfo(device: KMSDevice, choice: ModeChoice) throws -> drmModeModeInfo {
        guard let infos = device.modeInfos[choice.connector.id], choice.modeIndex < infos.count else {
            throw Errno(EINVAL, operation: "\(device.path): mode \(choice.mode) of \(choice.connector.name) is gone")
        }
        return infos[choice.modeIndex]
    }

    static func makeBuffers(device: KMSDevice, mode: KMSMode) throws -> [DumbBuffer] {
        let buffers = try (0..<2).map { _ in
            try DumbBuffer(fd: device.fd, width: mode.width, height: mode.height, format: FourCC.xrgb8888, map: true)
        }
        for buffer in buffers { buffer.memory!.initializeMemory(as: UInt8.self, repeating: 0) }
        return buffers
    }

    /// A blocking modeset of `plan` showing the front buffer.
    func modeset() throws {
        settleFlip()
        let blob = try device.createModeBlob(Self.modeInfo(device: device, choice: modeChoice))
        let request = try AtomicRequest(device: device)
        do {
            try Self.fill(request, plan: plan, modeBlob: blob, framebuffers: [buffers[front].framebufferID])
            try request.commitOrThrow(flags: UInt32(DRM_MODE_ATOMIC_ALLOW_MODESET),
                                      operation: "\(device.path): modeset \(modeChoice.connector.name) to \(modeChoice.mode)")
        } catch {
            device.destroyBlob(blob)
            throw error
        }
        device.destroyBlob(modeBlob)
        modeBlob = blob
    }
}
