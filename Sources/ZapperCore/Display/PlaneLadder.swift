/// One plane's part in a frame: which plane, what format it scans, what part of
/// its buffer goes where on the screen.
public struct PlaneLayer: Equatable, Sendable {
    public enum Role: String, Equatable, Sendable {
        /// Decoded video, scaled by the plane.
        case video
        /// The UI (cards, panel, overlay), with alpha, over the video.
        case ui
        /// The whole picture, composited in software.
        case screen
    }

    public var role: Role
    public var planeID: UInt32
    public var format: UInt32
    /// Size of the buffer the plane reads (SRC_W/SRC_H).
    public var sourceWidth: Int
    public var sourceHeight: Int
    /// Where it lands on the CRTC (CRTC_X/Y/W/H).
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(role: Role, planeID: UInt32, format: UInt32, sourceWidth: Int, sourceHeight: Int,
                x: Int = 0, y: Int = 0, width: Int, height: Int) {
        self.role = role
        self.planeID = planeID
        self.format = format
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var scales: Bool { sourceWidth != width || sourceHeight != height }
}

/// A whole plane assignment for one CRTC, the value a TEST_ONLY commit proves.
public struct PlanePlan: Equatable, Sendable {
    public enum Step: String, Equatable, Sendable {
        /// (a) video on a YUV plane that scales, UI on an ARGB plane above it.
        case yuvVideoPlane
        /// (b) one XRGB8888 primary plane; video and UI composited in software.
        case softwareComposite
    }

    public var step: Step
    public var crtcID: UInt32
    public var connectorID: UInt32
    public var mode: KMSMode
    /// Bottom to top.
    public var layers: [PlaneLayer]
    /// The CRTC's other planes, turned off by the commit.
    public var disabledPlanes: [UInt32]

    public init(step: Step, crtcID: UInt32, connectorID: UInt32, mode: KMSMode, layers: [PlaneLayer], disabledPlanes: [UInt32]) {
        self.step = step
        self.crtcID = crtcID
        self.connectorID = connectorID
        self.mode = mode
        self.layers = layers
        self.disabledPlanes = disabledPlanes
    }

    public func layer(_ role: PlaneLayer.Role) -> PlaneLayer? { layers.first { $0.role == role } }
}

/// The plane ladder: try the best plane assignment first and step down, each
/// rung proven by the caller's test commit (a DRM_MODE_ATOMIC_TEST_ONLY commit
/// on a real device), the way weston's DRM backend assigns planes.
public enum PlaneLadder {
    public struct Choice: Equatable, Sendable {
        public var plan: PlanePlan
        /// One line to log once: what was chosen and why.
        public var description: String
    }

    /// The YUV formats a video plane may scan, best first.
    public static let videoFormats = [FourCC.nv12, FourCC.yuv420]

    /// Walks the ladder for `choice` and returns the first plan `test` accepts.
    ///
    /// `videoSize` is the picture size the video plane is tested with; when it equals
    /// the mode's size, half of it is used instead, so that the test proves scaling.
    public static func choose(in description: KMSDescription, for choice: ModeChoice,
                              videoSize: (width: Int, height: Int) = (1920, 1080),
                              test: (PlanePlan) -> Bool) throws(KMSError) -> Choice {
        let crtcs = description.crtcs(for: choice.connector)
        let yuvCandidates = crtcs.flatMap { PlaneLadder.yuvPlans(description, crtc: $0, choice: choice, videoSize: videoSize) }
        for plan in yuvCandidates where test(plan) {
            let video = plan.layer(.video)!, ui = plan.layer(.ui)!
            return Choice(plan: plan, description:
                "planes: video \(FourCC.name(video.format)) on plane \(video.planeID) scaled to \(choice.mode), "
                + "UI ARGB8888 on plane \(ui.planeID) above it (CRTC \(plan.crtcID), \(choice.connector.name))")
        }
        let why = yuvCandidates.isEmpty
            ? "no YUV plane with an ARGB plane above it"
            : "the driver refused \(yuvCandidates.count) YUV plane assignment\(yuvCandidates.count == 1 ? "" : "s")"
        for crtc in crtcs {
            guard let plan = softwarePlan(description, crtc: crtc, choice: choice), test(plan) else { continue }
            return Choice(plan: plan, description:
                "planes: one XRGB8888 primary plane \(plan.layers[0].planeID) at \(choice.mode), "
                + "video and UI composited in software (CRTC \(plan.crtcID), \(choice.connector.name); \(why))")
        }
        throw .noPlaneConfiguration(connector: choice.connector.name, mode: choice.mode.description)
    }

    /// Rung (a) for one CRTC: every (video plane, UI plane) pair that could work, best first.
    /// A primary plane that scans YUV takes the video (it is always at the bottom);
    /// otherwise an overlay does, and the UI goes on an overlay stacked above it.
    public static func yuvPlans(_ description: KMSDescription, crtc: UInt32, choice: ModeChoice,
                                videoSize: (width: Int, height: Int)) -> [PlanePlan] {
        let mode = choice.mode
        var source = videoSize
        if source.width == mode.width && source.height == mode.height {
            source = (max(2, mode.width / 2 & ~1), max(2, mode.height / 2 & ~1))
        }
        let planes = description.planes(for: crtc).filter { $0.type != .cursor }
        let videoPlanes = planes.filter { plane in videoFormats.contains { plane.formats.contains($0) } }
            .sorted { ($0.type == .primary ? 0 : 1, $0.id) < ($1.type == .primary ? 0 : 1, $1.id) }
        var plans: [PlanePlan] = []
        for video in videoPlanes {
            let format = videoFormats.first { video.formats.contains($0) }!
            for ui in planes where ui.id != video.id && ui.formats.contains(FourCC.argb8888) && isAbove(ui, video) {
                let layers = [
                    PlaneLayer(role: .video, planeID: video.id, format: format,
                               sourceWidth: source.width, sourceHeight: source.height,
                               width: mode.width, height: mode.height),
                    PlaneLayer(role: .ui, planeID: ui.id, format: FourCC.argb8888,
                               sourceWidth: mode.width, sourceHeight: mode.height,
                               width: mode.width, height: mode.height),
                ]
                plans.append(PlanePlan(step: .yuvVideoPlane, crtcID: crtc, connectorID: choice.connector.id,
                                       mode: mode, layers: layers,
                                       disabledPlanes: planes.map(\.id).filter { $0 != video.id && $0 != ui.id }))
            }
        }
        return plans
    }

    /// Rung (b) for one CRTC: its primary plane scanning XRGB8888 at the mode's size.
    public static func softwarePlan(_ description: KMSDescription, crtc: UInt32, choice: ModeChoice) -> PlanePlan? {
        let mode = choice.mode
        let planes = description.planes(for: crtc).filter { $0.type != .cursor }
        guard let primary = planes.first(where: { $0.type == .primary && $0.formats.contains(FourCC.xrgb8888) }) else {
            return nil
        }
        let layer = PlaneLayer(role: .screen, planeID: primary.id, format: FourCC.xrgb8888,
                               sourceWidth: mode.width, sourceHeight: mode.height,
                               width: mode.width, height: mode.height)
        return PlanePlan(step: .softwareComposite, crtcID: crtc, connectorID: choice.connector.id, mode: mode,
                         layers: [layer], disabledPlanes: planes.map(\.id).filter { $0 != primary.id })
    }

    /// Whether `upper` stacks above `lower`: the primary plane is the bottom one;
    /// between overlays the zpos decides where both have one, else the kernel's order.
    static func isAbove(_ upper: KMSPlane, _ lower: KMSPlane) -> Bool {
        if upper.type == .primary { return false }
        if lower.type == .primary { return true }
        if let a = upper.zpos, let b = lower.zpos, a != b { return a > b }
        return upper.id > lower.id
    }
}
