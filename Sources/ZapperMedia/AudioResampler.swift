import CFFmpeg

/// Converts decoded audio (any layout, rate and sample format) into
/// interleaved signed 16-bit stereo at the output's rate, with libswresample; surround is
/// downmixed with its centre at -3 dB a side and its surrounds at -3 dB (ITU-R BS.775), unscaled.
public final class AudioResampler {
    private var context: OpaquePointer?
    /// The input the context was made for; a frame of another (a 5.1 programme
    /// going to a stereo break, a new codec after a splice) makes a new one.
    private var input: (format: Int32, rate: Int32, layout: AVChannelLayout)?
    public let outputRate: Int
    public let outputChannels = 2
    /// The largest sum of downmix coefficients left as it is: 5.1's front, centre and surround
    /// (1 + 0.707 + 0.707) fit.
    static let surroundHeadroom = 2.5

    public init(outputRate: Int = 48_000) {
        self.outputRate = outputRate
    }

    deinit {
        swr_free(&context)
        forgetInput()
    }

    private func forgetInput() {
        if var layout = input?.layout { av_channel_layout_uninit(&layout) }
        input = nil
    }

    private func prepare(for frame: UnsafeMutablePointer<AVFrame>) throws {
        if let input, context != nil, input.format == frame.pointee.format, input.rate == frame.pointee.sample_rate,
           withUnsafePointer(to: input.layout, { av_channel_layout_compare($0, &frame.pointee.ch_layout) }) == 0 {
            return
        }
        swr_free(&context)
        forgetInput()
        guard frame.pointee.sample_rate > 0, frame.pointee.ch_layout.nb_channels > 0 else {
            throw AVError(code: -22, operation: "audio of \(frame.pointee.ch_layout.nb_channels) channels at \(frame.pointee.sample_rate) Hz")
        }
        var copy = AVChannelLayout()
        try AVError.check(av_channel_layout_copy(&copy, &frame.pointee.ch_layout), "av_channel_layout_copy")
        input = (frame.pointee.format, frame.pointee.sample_rate, copy)
        var layout = AVChannelLayout()
        av_channel_layout_default(&layout, Int32(outputChannels))
        defer { av_channel_layout_uninit(&layout) }
        try AVError.check(swr_alloc_set_opts2(&context, &layout, AV_SAMPLE_FMT_S16, Int32(outputRate),
                                              &frame.pointee.ch_layout, AVSampleFormat(frame.pointee.format),
                                              frame.pointee.sample_rate, 0, nil), "swr_alloc_set_opts2")
        if frame.pointee.ch_layout.nb_channels > 2 {
            // A surround downmix keeps the centre (a broadcast's speech) at -3 dB in each side, its
            // level, rather than scaling the whole mix down until no sum can exceed full scale
            // (swresample's default: the centre 10.7 dB down in 5.1). Loud peaks clip instead.
            try AVError.check(av_opt_set_double(UnsafeMutableRawPointer(context), "rematrix_maxval", Self.surroundHeadroom, 0),
                              "av_opt_set_double rematrix_maxval")
        }
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
