import ZapperCore

/// Hand-written KMS descriptions shaped like real drivers.
enum KMSFixtures {
    static let xrgb = FourCC.xrgb8888, argb = FourCC.argb8888, nv12 = FourCC.nv12, yuv420 = FourCC.yuv420
    static let rgb565 = FourCC.code("RG16")

    /// QEMU's bochs-drm: one connector `Virtual-1` (preferred 1280x800; 1920x1080 at 60
    /// and 50 Hz), one CRTC, one primary plane scanning RGB only.
    static var bochs: KMSDescription {
        KMSDescription(
            connectors: [KMSConnector(id: 35, name: "Virtual-1", connected: true, modes: [
                KMSMode(width: 1280, height: 800, refreshMilliHz: 60000, preferred: true),
                KMSMode(width: 1920, height: 1080, refreshMilliHz: 60000),
                KMSMode(width: 1920, height: 1080, refreshMilliHz: 50000),
                KMSMode(width: 1024, height: 768, refreshMilliHz: 60000),
            ], encoderIDs: [36])],
            encoders: [KMSEncoder(id: 36, possibleCRTCs: 0b1)],
            crtcs: [34],
            planes: [KMSPlane(id: 31, type: .primary, formats: [xrgb, rgb565], possibleCRTCs: 0b1)])
    }

    /// A set-top SoC: two CRTCs, HDMI on the second; a primary plane per CRTC, an NV12
    /// overlay that only the second CRTC can use, an ARGB overlay above it, a cursor.
    static var settop: KMSDescription {
        KMSDescription(
            connectors: [
                KMSConnector(id: 50, name: "DSI-1", connected: false, modes: [], encoderIDs: [60]),
                KMSConnector(id: 51, name: "HDMI-A-1", connected: true, modes: [
                    KMSMode(width: 3840, height: 2160, refreshMilliHz: 30000),
                    KMSMode(width: 1920, height: 1080, refreshMilliHz: 60000, preferred: true),
                    KMSMode(width: 1920, height: 1080, refreshMilliHz: 59940),
                    KMSMode(width: 1920, height: 1080, refreshMilliHz: 50000),
                    KMSMode(width: 1920, height: 1080, refreshMilliHz: 60000, interlaced: true),
                    KMSMode(width: 1280, height: 720, refreshMilliHz: 60000),
                ], encoderIDs: [61]),
            ],
            encoders: [KMSEncoder(id: 60, possibleCRTCs: 0b01), KMSEncoder(id: 61, possibleCRTCs: 0b10)],
            crtcs: [40, 41],
            planes: [
                KMSPlane(id: 10, type: .primary, formats: [xrgb, argb], possibleCRTCs: 0b01, zpos: 0),
                KMSPlane(id: 11, type: .primary, formats: [xrgb, argb], possibleCRTCs: 0b10, zpos: 0),
                KMSPlane(id: 12, type: .overlay, formats: [argb, xrgb, nv12, yuv420], possibleCRTCs: 0b01, zpos: 1),
                KMSPlane(id: 13, type: .overlay, formats: [yuv420, nv12], possibleCRTCs: 0b10, zpos: 1),
                KMSPlane(id: 14, type: .overlay, formats: [argb, xrgb], possibleCRTCs: 0b10, zpos: 2),
                KMSPlane(id: 15, type: .cursor, formats: [argb], possibleCRTCs: 0b11, zpos: 3),
            ])
    }
}
