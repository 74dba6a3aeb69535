import CFFmpeg
import ZapperCore

/// An AVIOContext whose reads come from a `ByteQueue`: libavformat demuxes
/// what our own HLS client fetched, and never opens a URL itself.
final class CustomIO {
    let context: UnsafeMutablePointer<AVIOContext>
    private let queue: ByteQueue

    init(queue: ByteQueue, bufferSize: Int = 64 * 1024) throws {
        self.queue = queue
        guard let buffer = av_malloc(bufferSize)?.assumingMemoryBound(to: UInt8.self) else {
            throw AVError(code: zapper_averror(ENOMEM), operation: "av_malloc")
        }
        let opaque = Unmanaged.passUnretained(queue).toOpaque()
        guard let context = avio_alloc_context(buffer, Int32(bufferSize), 0, opaque, readFromQueue, nil, nil) else {
            av_free(buffer)
            throw AVError(code: zapper_averror(ENOMEM), operation: "avio_alloc_context")
        }
        self.context = context
    }

    deinit {
        // libavformat may have replaced the buffer; free the one it holds now.
        av_freep(&context.pointee.buffer)
        var pointer: UnsafeMutablePointer<AVIOContext>? = context
        avio_context_free(&pointer)
    }
}

private func readFromQueue(_ opaque: UnsafeMutableRawPointer?, _ buffer: UnsafeMutablePointer<UInt8>?, _ size: Int32) -> Int32 {
    guard let opaque, let buffer, size > 0 else { return zapper_averror(EINVAL) }
    let queue = Unmanaged<ByteQueue>.fromOpaque(opaque).takeUnretainedValue()
    switch queue.read(into: buffer, capacity: Int(size)) {
    case .bytes(let count): return Int32(count)
    case .end: return zapper_averror_eof()
    case .cancelled: return zapper_averror_exit()
    }
}
