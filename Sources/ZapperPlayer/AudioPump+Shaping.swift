extension AudioPump {
    /// A pause (`AudioPump.pause`): the position heard when it began and the frames of sound the
    /// device held then, its wall time, the silence written since, and the sound still to fade out.
    struct Paused {
        let at: Double
        let held: Int
        let wall: Double
        var written = 0
        var fadeLeft: Int
    }

    /// Multiplies stereo samples by `gain` times a per-frame envelope.
    static func scale(_ samples: inout [Int16], gain: Float, envelope: (Int) -> Float) {
        for frame in 0..<samples.count / 2 {
            let factor = gain * envelope(frame)
            guard factor < 0.9999 else { continue }
            for channel in 0..<2 {
                let index = frame * 2 + channel
                samples[index] = Int16(max(-32768, min(32767, (Float(samples[index]) * factor).rounded())))
            }
        }
    }
}
