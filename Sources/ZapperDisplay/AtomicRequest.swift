import CDRM
import Glibc

/// One atomic commit being built: property values by object and name.
final class AtomicRequest {
    let device: KMSDevice
    private let request: drmModeAtomicReqPtr

    init(device: KMSDevice) throws {
        guard let request = drmModeAtomicAlloc() else { throw Errno(ENOMEM, operation: "allocate an atomic request") }
        self.device = device
        self.request = request
    }

    deinit { drmModeAtomicFree(request) }

    /// ZAPPER_DEBUG_KMS=1 prints every property set on stderr.
    static let debug = getenv("ZAPPER_DEBUG_KMS") != nil

    func set(_ object: UInt32, type: UInt32, _ name: String, _ value: UInt64) throws {
        let property = try device.propertyID(name, of: object, type: type)
        if Self.debug {
            let line = "KMS: object \(object) \(name) (property \(property)) = \(value)\n"
            _ = line.withCString { write(STDERR_FILENO, $0, strlen($0)) }
        }
        let added = drmModeAtomicAddProperty(request, object, property, value)
        guard added >= 0 else { throw Errno(-added, operation: "add \(name) to an atomic request") }
    }

    func setCRTC(_ crtc: UInt32, _ name: String, _ value: UInt64) throws {
        try set(crtc, type: UInt32(DRM_MODE_OBJECT_CRTC), name, value)
    }

    func setPlane(_ plane: UInt32, _ name: String, _ value: UInt64) throws {
        try set(plane, type: UInt32(DRM_MODE_OBJECT_PLANE), name, value)
    }

    func setConnector(_ connector: UInt32, _ name: String, _ value: UInt64) throws {
        try set(connector, type: UInt32(DRM_MODE_OBJECT_CONNECTOR), name, value)
    }

    /// Commits; 0 or a negative errno.
    func commit(flags: UInt32, userData: UnsafeMutableRawPointer? = nil) -> Int32 {
        drmModeAtomicCommit(device.fd, request, flags, userData)
    }

    /// Commits, throwing `Errno` named after `operation` on failure.
    func commitOrThrow(flags: UInt32, userData: UnsafeMutableRawPointer? = nil, operation: String) throws {
        let result = commit(flags: flags, userData: userData)
        guard result == 0 else { throw Errno(-result, operation: operation) }
    }
}

extension KMSDevice {
    /// A property blob holding `mode` (for MODE_ID); the caller destroys it when no longer needed.
    func createModeBlob(_ mode: drmModeModeInfo) throws -> UInt32 {
        var mode = mode
        var blob: UInt32 = 0
        let created = drmModeCreatePropertyBlob(fd, &mode, MemoryLayout<drmModeModeInfo>.size, &blob)
        guard created == 0 else { throw Errno(-created, operation: "create a mode blob") }
        return blob
    }

    func destroyBlob(_ blob: UInt32) {
        if blob != 0 { drmModeDestroyPropertyBlob(fd, blob) }
    }
}
