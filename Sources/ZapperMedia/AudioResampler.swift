import CFFmpeg

/// Converts decoded audio (any layout, rate and sample format) into
/// interleaved signed 16-bit stereo at the output's rate, with libswresample.
public final class AudioResampler {
    private var context: OpaquePointer?
    public let outputRate: Int
    public let outputChannels = 2

    public init(outputRate: Int = 48_000) {
        self.outputRate = outputRate
    }

    deinit {
        swr_free(&context)
    }

    private func prepare(for frame: UnsafeMutablePointer<AVFrame>) throws {
        guard context == nil else { return }
        var layout = AVChannelLayout()
        av_channel_layout_default(&layout, Int32(outputChannels))
        defer { av_channel_layout_uninit(&layout) }
        try AVError.check(swr_alloc_set_opts2(&context, &layout, AV_SAMPLE_FMT_S16, Int32(outputRate),
                                              &frame.pointee.ch_layout, AVSampleFormat(frame.pointee.format),
                                              frame.pointee.sample_rate, 0, nil), "swr_alloc_set_opts2")
        try AVError.check(swr_init(context), "swr_init")
    }

    /// The frame's samples, converted.
    public func convert(_ frame: Frame) throws -> [Int16] {
        let source = frame.pointer
        try prepare(for: source)
        let capacity = Int(swr_get_out_samples(context, source.pointee.nb_samples))
        guard capacity > 0 else { return [] }
        var output = [Int16](repeating: 0, count: capacity * outputChannels)
        let converted = try output.withUnsafeMutableBytes { raw -> Int32 in
            var destination: UnsafeMutablePointer<UInt8>? = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            let planes = withUnsafePointer(to: source.pointee.extended_data) { $0.pointee }
            let count = withUnsafeMutablePointer(to: &destination) { pointer in
                swr_convert(context, pointer, Int32(capacity),
                            UnsafeMutableRawPointer(planes!).assumingMemoryBound(to: UnsafePointer<UInt8>?.self),
                            source.pointee.nb_samples)
            }
            return try AVError.check(count, "swr_convert")
        }
        output.removeLast((capacity - Int(converted)) * outputChannels)
        return output
    }
}
