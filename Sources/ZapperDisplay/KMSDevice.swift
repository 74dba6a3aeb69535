import CDRM
import Glibc
import ZapperCore

/// An open DRM card with atomic modesetting turned on: its capabilities, its
/// objects read into a `KMSDescription`, and property IDs looked up by name
/// once and cached (as kmscube does).
public final class KMSDevice {
    public let path: String
    public let fd: Int32
    /// DRM_CAP_DUMB_PREFER_SHADOW: reading dumb buffers is slow (uncached or
    /// remote memory), so draw into RAM and copy whole frames in.
    public let prefersShadow: Bool
    /// Page-flip timestamps are CLOCK_MONOTONIC (DRM_CAP_TIMESTAMP_MONOTONIC).
    public let monotonicTimestamps: Bool
    /// The kernel's mode structs per connector ID, in the order of `KMSConnector.modes`.
    private(set) var modeInfos: [UInt32: [drmModeModeInfo]] = [:]
    private var propertyIDs: [UInt32: [String: UInt32]] = [:]

    /// Opens `path` and turns on universal planes and atomic modesetting.
    public init(path: String) throws {
        let fd = open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT || code == ENODEV || code == ENXIO {
                throw KMSError.noDevice(tried: "\(path): \(String(cString: strerror(code)))")
            }
            throw Errno(code, operation: "open \(path)")
        }
        self.path = path
        self.fd = fd
        var failure: (any Error)?
        if drmSetClientCap(fd, UInt64(DRM_CLIENT_CAP_UNIVERSAL_PLANES), 1) != 0
            || drmSetClientCap(fd, UInt64(DRM_CLIENT_CAP_ATOMIC), 1) != 0 {
            failure = KMSError.notAtomic(device: path)
        }
        var value: UInt64 = 0
        if failure == nil, drmGetCap(fd, UInt64(DRM_CAP_DUMB_BUFFER), &value) != 0 || value == 0 {
            failure = KMSError.noDumbBuffers(device: path)
        }
        value = 0
        prefersShadow = drmGetCap(fd, UInt64(DRM_CAP_DUMB_PREFER_SHADOW), &value) == 0 && value != 0
        value = 1
        monotonicTimestamps = drmGetCap(fd, UInt64(DRM_CAP_TIMESTAMP_MONOTONIC), &value) != 0 || value != 0
        if let failure {
            close(fd)
            throw failure
        }
    }

    deinit { close(fd) }

    /// The kernel driver's name ("bochs-drm", "virtio_gpu", "vc4").
    public var driverName: String {
        guard let version = drmGetVersion(fd) else { return "unknown" }
        defer { drmFreeVersion(version) }
        return version.pointee.name.map { String(cString: $0) } ?? "unknown"
    }

    // MARK: Master

    public var isMaster: Bool { drmIsMaster(fd) != 0 }

    /// Becomes DRM master; another master holding the device is a `KMSError.masterHeld`.
    public func becomeMaster() throws {
        if isMaster { return }
        guard drmSetMaster(fd) == 0 else {
            let code = errno
            if code == EBUSY { throw KMSError.masterHeld(device: path) }
            throw Errno(code, operation: "\(path): become DRM master")
        }
    }

    public func dropMaster() { drmDropMaster(fd) }

    // MARK: Objects

    /// Reads connectors (probing them: this notices hotplug), encoders, CRTCs and planes.
    public func describe() throws -> KMSDescription {
        guard let resources = drmModeGetResources(fd) else { throw Errno(operation: "\(path): read KMS resources") }
        defer { drmModeFreeResources(resources) }
        let r = resources.pointee
        let crtcs = Array(UnsafeBufferPointer(start: r.crtcs, count: Int(r.count_crtcs)))
        var encoders: [KMSEncoder] = []
        var encoderCRTC: [UInt32: UInt32] = [:]
        for id in UnsafeBufferPointer(start: r.encoders, count: Int(r.count_encoders)) {
            guard let encoder = drmModeGetEncoder(fd, id) else { continue }
            encoders.append(KMSEncoder(id: id, possibleCRTCs: encoder.pointee.possible_crtcs))
            if encoder.pointee.crtc_id != 0 { encoderCRTC[id] = encoder.pointee.crtc_id }
            drmModeFreeEncoder(encoder)
        }
        var connectors: [KMSConnector] = []
        modeInfos = [:]
        for id in UnsafeBufferPointer(start: r.connectors, count: Int(r.count_connectors)) {
            guard let connector = drmModeGetConnector(fd, id) else { continue }
            defer { drmModeFreeConnector(connector) }
            let c = connector.pointee
            let infos = Array(UnsafeBufferPointer(start: c.modes, count: Int(c.count_modes)))
            modeInfos[id] = infos
            let typeName = drmModeGetConnectorTypeName(c.connector_type).map { String(cString: $0) } ?? "Unknown"
            connectors.append(KMSConnector(
                id: id, name: "\(typeName)-\(c.connector_type_id)",
                connected: c.connection == DRM_MODE_CONNECTED,
                modes: infos.map(Self.mode),
                encoderIDs: Array(UnsafeBufferPointer(start: c.encoders, count: Int(c.count_encoders))),
                currentCRTC: encoderCRTC[c.encoder_id]))
        }
        var planes: [KMSPlane] = []
        if let planeResources = drmModeGetPlaneResources(fd) {
            defer { drmModeFreePlaneResources(planeResources) }
            let p = planeResources.pointee
            for id in UnsafeBufferPointer(start: p.planes, count: Int(p.count_planes)) {
                guard let plane = drmModeGetPlane(fd, id) else { continue }
                defer { drmModeFreePlane(plane) }
                let values = propertyValues(of: id, type: DRM_MODE_OBJECT_PLANE)
                let type: KMSPlaneType = switch values["type"].map(Int32.init(truncatingIfNeeded:)) {
                case DRM_PLANE_TYPE_PRIMARY: .primary
                case DRM_PLANE_TYPE_CURSOR: .cursor
                default: .overlay
                }
                planes.append(KMSPlane(
                    id: id, type: type,
                    formats: Array(UnsafeBufferPointer(start: plane.pointee.formats, count: Int(plane.pointee.count_formats))),
                    possibleCRTCs: plane.pointee.possible_crtcs,
                    zpos: values["zpos"].map { Int(truncatingIfNeeded: $0) }))
            }
        }
        return KMSDescription(connectors: connectors, encoders: encoders, crtcs: crtcs, planes: planes)
    }

    /// A kernel mode as a `KMSMode`, the refresh rate computed in millihertz from the timings.
    static func mode(_ info: drmModeModeInfo) -> KMSMode {
        var refresh = Int64(info.vrefresh) * 1000
        let total = Int64(info.htotal) * Int64(info.vtotal)
        if total > 0 {
            refresh = (Int64(info.clock) * 1_000_000 + total / 2) / total
            if info.flags & UInt32(DRM_MODE_FLAG_INTERLACE) != 0 { refresh *= 2 }
            if info.flags & UInt32(DRM_MODE_FLAG_DBLSCAN) != 0 { refresh /= 2 }
            if info.vscan > 1 { refresh /= Int64(info.vscan) }
        }
        return KMSMode(width: Int(info.hdisplay), height: Int(info.vdisplay), refreshMilliHz: Int(refresh),
                       preferred: info.type & UInt32(DRM_MODE_TYPE_PREFERRED) != 0,
                       interlaced: info.flags & UInt32(DRM_MODE_FLAG_INTERLACE) != 0)
    }

    // MARK: Properties

    /// The current values of an object's properties, by name (IDs cached on the way).
    func propertyValues(of object: UInt32, type: UInt32) -> [String: UInt64] {
        guard let properties = drmModeObjectGetProperties(fd, object, type) else { return [:] }
        defer { drmModeFreeObjectProperties(properties) }
        let p = properties.pointee
        var ids = propertyIDs[object] ?? [:]
        let known = Dictionary(uniqueKeysWithValues: ids.map { ($0.value, $0.key) })
        var values: [String: UInt64] = [:]
        for i in 0..<Int(p.count_props) {
            let id = p.props[i]
            var name = known[id]
            if name == nil, let property = drmModeGetProperty(fd, id) {
                name = withUnsafeBytes(of: property.pointee.name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                drmModeFreeProperty(property)
                ids[name!] = id
            }
            if let name { values[name] = p.prop_values[i] }
        }
        propertyIDs[object] = ids
        return values
    }

    /// The ID of an object's property by name, looked up once.
    func propertyID(_ name: String, of object: UInt32, type: UInt32) throws -> UInt32 {
        if let id = propertyIDs[object]?[name] { return id }
        _ = propertyValues(of: object, type: type)
        guard let id = propertyIDs[object]?[name] else {
            throw Errno(EINVAL, operation: "\(path): object \(object) has no property \(name)")
        }
        return id
    }
}
