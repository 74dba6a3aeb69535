import CCairo
import Glibc

/// The overlay's screen-sized pixels (premultiplied ARGB32), in memory of its own
/// that can be given back to the kernel while the overlay shows nothing.
///
/// Most of the time nothing is on the overlay: a card, a banner or the panel comes and
/// goes. The pages a card once touched would otherwise stay resident for good (8 MB at
/// 1080p, more at 4K). Anonymous pages given back read as zeros again, and zeros are
/// transparent: `release()` is a clear that also frees the memory.
final class OverlayPixels {
    let stride: Int
    let height: Int
    private let base: UnsafeMutableRawPointer
    private let length: Int

    /// Nil when the kernel refuses the mapping (no memory).
    init?(width: Int, height: Int) {
        stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(width)))
        self.height = height
        let (bytes, overflow) = stride.multipliedReportingOverflow(by: height)
        guard stride > 0, height > 0, !overflow else { return nil }
        length = bytes
        let address = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let address, address != MAP_FAILED else { return nil }
        base = address
    }

    deinit { munmap(base, length) }

    var data: UnsafeMutablePointer<UInt8> { base.assumingMemoryBound(to: UInt8.self) }

    /// Every pixel transparent again, and the pages they used returned to the kernel.
    func release() {
        if madvise(base, length, Int32(MADV_DONTNEED)) != 0 {
            base.initializeMemory(as: UInt8.self, repeating: 0, count: length)
        }
    }
}
