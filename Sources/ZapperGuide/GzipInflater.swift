import CZlib

/// A zlib error with zlib's own message.
public struct ZlibError: Error, Sendable, Equatable, CustomStringConvertible {
    public var code: Int32
    public var message: String
    public var description: String { "gzip: \(message) (zlib \(code))" }
}

/// Streaming gzip decompression (zlib's inflate): compressed chunks in,
/// decompressed chunks out, never the whole file. Several gzip members one
/// after another (what `cat a.gz b.gz` makes) are read as one stream.
final class GzipInflater {
    private var stream = z_stream()
    private var ended = false
    /// True once a member's end has been reached with no input after it.
    private(set) var atMemberEnd = false
    private let outputSize: Int

    init(outputSize: Int = 64 * 1024) throws {
        self.outputSize = outputSize
        // 15 + 16: a gzip header and trailer, the largest window.
        let status = zapper_inflate_init2(&stream, 15 + 16)
        guard status == Z_OK else { throw ZlibError(code: status, message: Self.message(status, nil)) }
    }

    deinit {
        if !ended { inflateEnd(&stream) }
    }

    /// One call of zlib's inflate into `output`; what it made goes to `sink`.
    private func step(into output: inout [UInt8], _ sink: ([UInt8]) throws -> Void) throws -> (Int32, Int) {
        let (status, produced) = output.withUnsafeMutableBufferPointer { outBuffer in
            stream.next_out = outBuffer.baseAddress
            stream.avail_out = uInt(outBuffer.count)
            let status = CZlib.inflate(&stream, Z_NO_FLUSH)
            return (status, outBuffer.count - Int(stream.avail_out))
        }
        if produced > 0 { try sink(Array(output[0..<produced])) }
        return (status, produced)
    }

    /// Decompresses `input`, handing each piece of output to `sink` as it is made.
    func inflate(_ input: [UInt8], into sink: ([UInt8]) throws -> Void) throws {
        guard !input.isEmpty else { return }
        var output = [UInt8](repeating: 0, count: outputSize)
        try input.withUnsafeBufferPointer { inBuffer in
            stream.next_in = UnsafeMutablePointer(mutating: inBuffer.baseAddress)
            stream.avail_in = uInt(inBuffer.count)
            defer { stream.next_in = nil; stream.avail_in = 0 }
            while stream.avail_in > 0 {
                if atMemberEnd {
                    // Another gzip member follows the one that ended.
                    let status = inflateReset(&stream)
                    guard status == Z_OK else { throw error(status) }
                    atMemberEnd = false
                }
                let (status, produced) = try step(into: &output, sink)
                switch status {
                case Z_OK: continue
                case Z_STREAM_END: atMemberEnd = true
                case Z_BUF_ERROR where produced > 0: continue
                default: throw error(status)
                }
            }
            // Input consumed; zlib may still hold output for a full buffer.
            while !atMemberEnd {
                let (status, produced) = try step(into: &output, sink)
                if status == Z_STREAM_END { atMemberEnd = true; break }
                if status == Z_BUF_ERROR || produced == 0 { break }
                guard status == Z_OK else { throw error(status) }
            }
        }
    }

    /// Checks that the data ended at the end of a gzip member, not inside one.
    func finish() throws {
        guard atMemberEnd else {
            throw ZlibError(code: Z_DATA_ERROR, message: "the compressed data ends early (truncated file?)")
        }
    }

    private func error(_ status: Int32) -> ZlibError {
        ZlibError(code: status, message: Self.message(status, stream.msg))
    }

    private static func message(_ status: Int32, _ text: UnsafePointer<CChar>?) -> String {
        if let text { return String(cString: text) }
        return switch status {
        case Z_DATA_ERROR: "the data is not valid gzip"
        case Z_MEM_ERROR: "out of memory"
        case Z_VERSION_ERROR: "zlib version mismatch"
        case Z_STREAM_ERROR: "inconsistent stream state"
        default: "error \(status)"
        }
    }

    /// gzip's magic bytes, 1f 8b.
    static func isGzip(_ prefix: some Collection<UInt8>) -> Bool {
        prefix.count >= 2 && prefix.first == 0x1F && prefix.dropFirst().first == 0x8B
    }
}
