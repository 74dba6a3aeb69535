import CALSA
import ZapperCore

/// A PCM playback stream: interleaved signed 16-bit samples, format, rate
/// and channels negotiated with the device (ALSA's plug layer converts where
/// the device cannot), buffered for at most `latency` seconds. `write`
/// blocks: call it from the audio thread, never from the cooperative pool.
public final class ALSAOutput: PCMSink, CustomStringConvertible {
    private var pcm: OpaquePointer?
    public let device: String
    public let sampleRate: Int
    public let channels: Int
    public let bufferFrames: Int
    public let periodFrames: Int
    /// Underruns recovered so far.
    public private(set) var recoveries = 0

    public init(device: String = "default", sampleRate: Int = 48_000, channels: Int = 2, latency: Double = 0.04) throws {
        self.device = device
        self.sampleRate = sampleRate
        self.channels = channels
        var handle: OpaquePointer?
        // ALSA's own lines while it opens go with the error (one reason), not one by one.
        try ALSALibrary.capturingLines {
            try ALSAError.check(snd_pcm_open(&handle, device, SND_PCM_STREAM_PLAYBACK, 0), "snd_pcm_open \(device)")
        }
        pcm = handle
        do {
            try ALSAError.check(snd_pcm_set_params(handle, SND_PCM_FORMAT_S16_LE, SND_PCM_ACCESS_RW_INTERLEAVED,
                                                   UInt32(channels), UInt32(sampleRate), 1, UInt32(latency * 1_000_000)),
                                "snd_pcm_set_params \(device) (\(sampleRate) Hz, \(channels) channels)")
            var buffer: snd_pcm_uframes_t = 0
            var period: snd_pcm_uframes_t = 0
            try ALSAError.check(snd_pcm_get_params(handle, &buffer, &period), "snd_pcm_get_params")
            bufferFrames = Int(buffer)
            periodFrames = Int(period)
        } catch {
            snd_pcm_close(handle)
            pcm = nil
            throw error
        }
    }

    public var description: String { "ALSA \"\(device)\"" }

    deinit {
        if let pcm { snd_pcm_close(pcm) }
    }

    /// Writes all frames, recovering from underruns (and suspends) as it goes.
    public func write(_ samples: UnsafeBufferPointer<Int16>) throws {
        var offset = 0
        let total = samples.count / channels
        while offset < total {
            let written = snd_pcm_writei(pcm, samples.baseAddress! + offset * channels, snd_pcm_uframes_t(total - offset))
            if written < 0 {
                try ALSAError.check(snd_pcm_recover(pcm, Int32(written), 1), "snd_pcm_writei on \(device)")
                recoveries += 1
                continue
            }
            offset += Int(written)
        }
    }

    /// Frames written but not yet heard (0 when the device cannot tell).
    public var delayFrames: Int {
        var delay: snd_pcm_sframes_t = 0
        return snd_pcm_delay(pcm, &delay) == 0 ? max(0, Int(delay)) : 0
    }

    /// Plays what is buffered, then stops.
    public func drain() {
        snd_pcm_drain(pcm)
    }
}
