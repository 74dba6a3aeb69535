/// What a KMS device offers, as plain values: connectors with their modes,
/// encoders, CRTCs and planes. The display backend reads it from the kernel;
/// tests write it by hand. Mode choice and the plane ladder work on it alone.
public struct KMSDescription: Equatable, Sendable {
    public var connectors: [KMSConnector]
    public var encoders: [KMSEncoder]
    /// CRTC object IDs, in the kernel's order: a CRTC's index here is its bit
    /// in the possible-CRTC masks of encoders and planes.
    public var crtcs: [UInt32]
    public var planes: [KMSPlane]

    public init(connectors: [KMSConnector], encoders: [KMSEncoder], crtcs: [UInt32], planes: [KMSPlane]) {
        self.connectors = connectors
        self.encoders = encoders
        self.crtcs = crtcs
        self.planes = planes
    }

    /// The CRTCs that can drive `connector` (through any of its encoders), in index order,
    /// with the one it is driving now (if any) first.
    public func crtcs(for connector: KMSConnector) -> [UInt32] {
        var mask: UInt32 = 0
        for encoder in encoders where connector.encoderIDs.contains(encoder.id) {
            mask |= encoder.possibleCRTCs
        }
        var ids = crtcs.enumerated().filter { mask & (1 << UInt32($0.offset)) != 0 }.map(\.element)
        if let current = connector.currentCRTC, let at = ids.firstIndex(of: current) {
            ids.insert(ids.remove(at: at), at: 0)
        }
        return ids
    }

    /// The planes that can scan out on `crtc`.
    public func planes(for crtc: UInt32) -> [KMSPlane] {
        guard let index = crtcs.firstIndex(of: crtc), index < 32 else { return [] }
        return planes.filter { $0.possibleCRTCs & (1 << UInt32(index)) != 0 }
    }
}

public struct KMSConnector: Equatable, Sendable {
    public var id: UInt32
    /// The name people and `--connector` use: "HDMI-A-1", "Virtual-1".
    public var name: String
    public var connected: Bool
    public var modes: [KMSMode]
    public var encoderIDs: [UInt32]
    /// The CRTC this connector is bound to now, if any.
    public var currentCRTC: UInt32?

    public init(id: UInt32, name: String, connected: Bool, modes: [KMSMode], encoderIDs: [UInt32], currentCRTC: UInt32? = nil) {
        self.id = id
        self.name = name
        self.connected = connected
        self.modes = modes
        self.encoderIDs = encoderIDs
        self.currentCRTC = currentCRTC
    }
}

public struct KMSEncoder: Equatable, Sendable {
    public var id: UInt32
    /// Bit i set: the CRTC at index i of `KMSDescription.crtcs` can drive it.
    public var possibleCRTCs: UInt32

    public init(id: UInt32, possibleCRTCs: UInt32) {
        self.id = id
        self.possibleCRTCs = possibleCRTCs
    }
}

/// A display mode as the connector offers it.
public struct KMSMode: Equatable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    /// Refresh rate in millihertz (59940 for 59.94 Hz).
    public var refreshMilliHz: Int
    public var preferred: Bool
    public var interlaced: Bool

    public init(width: Int, height: Int, refreshMilliHz: Int, preferred: Bool = false, interlaced: Bool = false) {
        self.width = width
        self.height = height
        self.refreshMilliHz = refreshMilliHz
        self.preferred = preferred
        self.interlaced = interlaced
    }

    public var refreshHz: Double { Double(refreshMilliHz) / 1000 }

    /// "1920x1080@60", "1920x1080@59.94", "1920x1080i@50".
    public var description: String {
        let hz = refreshMilliHz % 1000 == 0 ? "\(refreshMilliHz / 1000)"
            : String(Double((refreshMilliHz + 5) / 10) / 100)
        return "\(width)x\(height)\(interlaced ? "i" : "")@\(hz)"
    }
}

public enum KMSPlaneType: String, Equatable, Sendable {
    case primary, overlay, cursor
}

public struct KMSPlane: Equatable, Sendable {
    public var id: UInt32
    public var type: KMSPlaneType
    /// DRM fourcc codes the plane scans out.
    public var formats: [UInt32]
    /// Bit i set: the plane can be used with the CRTC at index i.
    public var possibleCRTCs: UInt32
    /// The plane's stacking position where the driver tells it (the `zpos` property).
    public var zpos: Int?

    public init(id: UInt32, type: KMSPlaneType, formats: [UInt32], possibleCRTCs: UInt32, zpos: Int? = nil) {
        self.id = id
        self.type = type
        self.formats = formats
        self.possibleCRTCs = possibleCRTCs
        self.zpos = zpos
    }
}

/// DRM fourcc codes (drm_fourcc.h): four ASCII characters, little-endian.
public enum FourCC {
    public static func code(_ text: StaticString) -> UInt32 {
        precondition(text.utf8CodeUnitCount == 4)
        let p = text.utf8Start
        return UInt32(p[0]) | UInt32(p[1]) << 8 | UInt32(p[2]) << 16 | UInt32(p[3]) << 24
    }

    public static let xrgb8888 = code("XR24")
    public static let argb8888 = code("AR24")
    public static let nv12 = code("NV12")
    public static let yuv420 = code("YU12")

    /// "XRGB8888" for the formats Zapper uses, else the four characters ("RG16"),
    /// else the hex value.
    public static func name(_ code: UInt32) -> String {
        switch code {
        case xrgb8888: return "XRGB8888"
        case argb8888: return "ARGB8888"
        case nv12: return "NV12"
        case yuv420: return "YUV420"
        default: break
        }
        let bytes = (0..<4).map { UInt8(truncatingIfNeeded: code >> (8 * $0)) }
        if bytes.allSatisfy({ (0x20...0x7e).contains($0) }) { return String(decoding: bytes, as: UTF8.self) }
        return "0x" + String(code, radix: 16)
    }
}
