import CDRM
import Glibc
import ZapperCore

/// A dumb buffer (CPU-drawn memory the display controller can scan out) with a
/// framebuffer object on it and, for single-plane formats, a mapping for drawing.
final class DumbBuffer {
    let fd: Int32
    let width: Int
    let height: Int
    let format: UInt32
    let handle: UInt32
    /// Bytes per row of the first plane.
    let stride: Int
    let size: Int
    let framebufferID: UInt32
    private(set) var memory: UnsafeMutableRawBufferPointer?

    /// - Parameter map: mmap the buffer for drawing (the scan-out buffers); the
    ///   buffers made only for TEST_ONLY commits need no mapping.
    init(fd: Int32, width: Int, height: Int, format: UInt32, map: Bool) throws {
        self.fd = fd
        self.width = width
        self.height = height
        self.format = format
        // Packed RGB: 32 bits a pixel. 4:2:0 YUV: an 8-bit luma plane and chroma
        // half as big again, allocated as one buffer of 8-bit rows.
        let yuv = format == FourCC.nv12 || format == FourCC.yuv420
        let rows = yuv ? height + (height + 1) / 2 : height
        var handle: UInt32 = 0, pitch: UInt32 = 0, size: UInt64 = 0
        let created = drmModeCreateDumbBuffer(fd, UInt32(width), UInt32(rows), yuv ? 8 : 32, 0, &handle, &pitch, &size)
        guard created == 0 else { throw Errno(-created, operation: "create a \(width)x\(height) \(FourCC.name(format)) dumb buffer") }
        self.handle = handle
        self.stride = Int(pitch)
        self.size = Int(size)

        var handles: (UInt32, UInt32, UInt32, UInt32) = (handle, 0, 0, 0)
        var pitches: (UInt32, UInt32, UInt32, UInt32) = (pitch, 0, 0, 0)
        var offsets: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
        let lumaSize = pitch * UInt32(height)
        if format == FourCC.nv12 {
            handles.1 = handle; pitches.1 = pitch; offsets.1 = lumaSize
        } else if format == FourCC.yuv420 {
            let chromaPitch = pitch / 2, chromaSize = chromaPitch * UInt32((height + 1) / 2)
            handles.1 = handle; pitches.1 = chromaPitch; offsets.1 = lumaSize
            handles.2 = handle; pitches.2 = chromaPitch; offsets.2 = lumaSize + chromaSize
        }
        var fb: UInt32 = 0
        let added = withUnsafePointer(to: &handles) { h in
            withUnsafePointer(to: &pitches) { p in
                withUnsafePointer(to: &offsets) { o in
                    h.withMemoryRebound(to: UInt32.self, capacity: 4) { h in
                        p.withMemoryRebound(to: UInt32.self, capacity: 4) { p in
                            o.withMemoryRebound(to: UInt32.self, capacity: 4) { o in
                                drmModeAddFB2(fd, UInt32(width), UInt32(height), format, h, p, o, &fb, 0)
                            }
                        }
                    }
                }
            }
        }
        guard added == 0 else {
            let code = errno
            drmModeDestroyDumbBuffer(fd, handle)
            throw Errno(code, operation: "add a \(FourCC.name(format)) framebuffer")
        }
        framebufferID = fb

        guard map else { return }
        var offset: UInt64 = 0
        let mapped = drmModeMapDumbBuffer(fd, handle, &offset)
        guard mapped == 0 else {
            drmModeRmFB(fd, fb)
            drmModeDestroyDumbBuffer(fd, handle)
            throw Errno(-mapped, operation: "map a dumb buffer")
        }
        let address = mmap(nil, Int(size), PROT_READ | PROT_WRITE, MAP_SHARED, fd, off_t(offset))
        guard let address, address != MAP_FAILED else {
            let code = errno
            drmModeRmFB(fd, fb)
            drmModeDestroyDumbBuffer(fd, handle)
            throw Errno(code, operation: "mmap a dumb buffer")
        }
        memory = UnsafeMutableRawBufferPointer(start: address, count: Int(size))
    }

    deinit {
        if let memory { munmap(memory.baseAddress, memory.count) }
        drmModeRmFB(fd, framebufferID)
        drmModeDestroyDumbBuffer(fd, handle)
    }
}
