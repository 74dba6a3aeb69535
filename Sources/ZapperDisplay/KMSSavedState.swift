import CDRM
import Glibc

/// What the screen looked like before Zapper took it (the console's framebuffer,
/// another program's mode), so that it can be handed back as it was: the CRTCs'
/// mode and ACTIVE, the connector's CRTC, the planes' framebuffers and rectangles.
struct KMSSavedState {
    private struct Object {
        var id: UInt32
        var type: UInt32
        var values: [(name: String, value: UInt64)]
    }

    private var crtcModes: [(crtc: UInt32, mode: drmModeModeInfo?)] = []
    private var objects: [Object] = []

    static let planeProperties = ["FB_ID", "CRTC_ID", "SRC_X", "SRC_Y", "SRC_W", "SRC_H",
                                  "CRTC_X", "CRTC_Y", "CRTC_W", "CRTC_H"]

    static func capture(_ device: KMSDevice, crtcs: [UInt32], connector: UInt32, planes: [UInt32]) -> KMSSavedState {
        var state = KMSSavedState()
        let crtcType = UInt32(DRM_MODE_OBJECT_CRTC)
        for crtc in crtcs {
            var mode: drmModeModeInfo?
            if let current = drmModeGetCrtc(device.fd, crtc) {
                if current.pointee.mode_valid != 0 { mode = current.pointee.mode }
                drmModeFreeCrtc(current)
            }
            state.crtcModes.append((crtc, mode))
            let values = device.propertyValues(of: crtc, type: crtcType)
            state.objects.append(Object(id: crtc, type: crtcType, values: values["ACTIVE"].map { [("ACTIVE", $0)] } ?? []))
        }
        let connectorType = UInt32(DRM_MODE_OBJECT_CONNECTOR)
        if let crtc = device.propertyValues(of: connector, type: connectorType)["CRTC_ID"] {
            state.objects.append(Object(id: connector, type: connectorType, values: [("CRTC_ID", crtc)]))
        }
        let planeType = UInt32(DRM_MODE_OBJECT_PLANE)
        for plane in planes {
            let values = device.propertyValues(of: plane, type: planeType)
            state.objects.append(Object(id: plane, type: planeType, values: planeProperties.compactMap { name in
                values[name].map { (name, $0) }
            }))
        }
        return state
    }

    /// Puts it all back in one blocking commit that may modeset.
    func restore(_ device: KMSDevice) throws {
        let request = try AtomicRequest(device: device)
        var blobs: [UInt32] = []
        defer { blobs.forEach(device.destroyBlob) }
        for (crtc, mode) in crtcModes {
            var blob: UInt32 = 0
            if let mode {
                blob = try device.createModeBlob(mode)
                blobs.append(blob)
            }
            try request.setCRTC(crtc, "MODE_ID", UInt64(blob))
        }
        for object in objects {
            for (name, value) in object.values {
                try request.set(object.id, type: object.type, name, value)
            }
        }
        try request.commitOrThrow(flags: UInt32(DRM_MODE_ATOMIC_ALLOW_MODESET), operation: "\(device.path): restore the previous display state")
    }
}
