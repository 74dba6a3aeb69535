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

    /// Gives back the whole pages inside `rows`, which must be transparent already (a page
    /// given back reads as zeros). A page shared with a row outside stays.
    func release(rows: Range<Int>) {
        let page = Self.pageSize
        let rows = rows.clamped(to: 0..<height)
        guard !rows.isEmpty else { return }
        let start = (rows.lowerBound * stride + page - 1) / page * page
        let end = rows.upperBound * stride / page * page
        guard start < end else { return }
        // Failing, the pages stay, and still hold zeros: nothing to do.
        _ = madvise(base + start, end - start, Int32(MADV_DONTNEED))
    }

    /// How many bytes of the pixels are in memory now (`mincore`), for tests and measurements.
    func residentBytes() -> Int? {
        let page = Self.pageSize
        var flags = [UInt8](repeating: 0, count: (length + page - 1) / page)
        guard mincore(base, length, &flags) == 0 else { return nil }
        return flags.reduce(0) { $0 + Int($1 & 1) } * page
    }

    private static let pageSize = max(4096, Int(sysconf(Int32(_SC_PAGESIZE))))
}
