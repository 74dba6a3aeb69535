import Foundation
import ZapperCore

/// The audio thread: feeds the sound device from the playing channel and keeps
/// the master clock (the timeline time being heard = written minus what the
/// device still holds). Where a device takes data faster than real time
/// (ALSA's `null` slave behind a `file` capture), it paces itself to the
/// wall clock so the clock stays true. With no device, or one that failed,
/// the sound is played into the system clock (`SoundDevice`), so the
/// pictures go on.
final class AudioPump: @unchecked Sendable {
    /// The device being written to, as the clock reads it (swapped by the audio thread).
    private var sink: (any PCMSink)?
    private let lock = NSCondition()
    private var playback: (any ChannelStream)?
    /// Timeline time at the start, and the wall time it maps to.
    private var origin: (time: Double, wall: Double)?
    private var writtenUntil: Double?       // timeline time at the end of what was written
    private var framesWritten = 0           // since `origin`
    private var soundFrames = 0             // of the channel's own sound since `origin` (not silence before it)
    private var started = false
    /// The old channel's last sound, faded out after a tune change.
    private var fading: (playback: any ChannelStream, from: Double, framesLeft: Int)?
    private var volume = 100
    private var muted = false
    /// Sound withheld whatever the volume (a locked channel); not the viewer's mute.
    private var withheld = false
    /// Even loudness for the playing channel (nil: off); the audio thread takes it while it works.
    private var leveller: Leveller?
    /// The leveller's gain after the last period it levelled (dB), and the one the fading sound keeps.
    private var levelGain: Double?
    private var fadingGain: Float = 1
    /// Fades last this long: no click when a channel starts or stops.
    static let fadeSeconds = 0.03
    /// Told when the playing channel's sound is first written: to a real device, or not (the system clock).
    private let onStarted: @Sendable (any ChannelStream, _ heard: Bool) -> Void
    /// Told when silence starts standing in for the playing channel's sound (once per run of it).
    private let onUnderrun: @Sendable () -> Void
    /// Silence stands in for the playing channel's sound now.
    private var starved = false
    /// The monotonic clock the sound is paced on when no device holds it back.
    private let wallClock: any PlayerClock
    /// Paused (`pause`): the position heard then, the device's sound then (frames), the wall time
    /// then, the silence written since, and the frames of the channel's sound still to fade out.
    private var paused: Paused?
    /// A period of silence (the pump's thread only).
    private var silence: [Int16] = []
    /// The device when the pump is stepped by hand (`threaded` false).
    private var steppedDevice: SoundDevice?

    /// `openSound` opens the real device (nil: none); `onSound` hears when it is lost and back.
    /// `threaded`: a thread of its own writes to the device as it takes the sound; otherwise
    /// nothing is written until `step()` (a test on a virtual clock).
    init(openSound: (@Sendable () throws -> any PCMSink)?, clock: any PlayerClock, threaded: Bool = true,
         onSound: @escaping @Sendable (SoundDevice.Change) -> Void, onUnderrun: @escaping @Sendable () -> Void = {},
         onStarted: @escaping @Sendable (any ChannelStream, _ heard: Bool) -> Void) {
        self.onStarted = onStarted
        self.onUnderrun = onUnderrun
        wallClock = clock
        guard threaded else {
            steppedDevice = SoundDevice(open: openSound, now: { clock.monotonic }, report: onSound)
            return
        }
        let thread = Thread { [weak self] in
            let device = SoundDevice(open: openSound, now: { clock.monotonic }, report: onSound)
            self?.loop(device)
        }
        thread.name = "zapper-audio"
        thread.start()
    }

    private func wall() -> Double { wallClock.monotonic }

    /// Silence stands in for the playing channel's sound now (its queue ran dry).
    var isStarved: Bool { lock.withLock { starved } }

    /// The rate the pump writes at (every device is opened at it; ALSA's plug layer converts).
    static let sampleRate = 48_000
    var sampleRate: Int { Self.sampleRate }

    /// Plays `playback` from timeline time `time`, which is on screen now, levelled by `leveller`.
    func begin(_ playback: any ChannelStream, at time: Double, leveller: Leveller? = nil) {
        lock.lock()
        self.playback = playback
        self.leveller = leveller
        levelGain = leveller?.gainDB
        origin = (time, wall())
        writtenUntil = nil
        framesWritten = 0
        soundFrames = 0
        started = false
        starved = false
        paused = nil
        lock.signal()
        lock.unlock()
    }

    /// Stops the sound; with `fadeOut`, what the old channel has already decoded
    /// plays on for a moment, fading (the device keeps running meanwhile).
    func end(fadeOut: Bool = false) {
        lock.lock()
        if fadeOut, let playback, let writtenUntil {
            fading = (playback, writtenUntil, Int(Self.fadeSeconds * Double(sampleRate)))
            fadingGain = Float(pow(10, (levelGain ?? 0) / 20))
        } else {
            fading = nil
            origin = nil
        }
        playback = nil
        paused = nil
        writtenUntil = nil
        leveller = nil
        levelGain = nil
        lock.unlock()
    }

    /// The playing channel's even-loudness gain now (dB; nil: not levelled).
    var levelGainDB: Double? { lock.withLock { levelGain } }

    /// Volume 0…100 (a squared curve, so steps sound even) and mute; returns the new state.
    @discardableResult
    func setLevel(volume: Int? = nil, muted: Bool? = nil) -> (volume: Int, muted: Bool) {
        lock.lock()
        defer { lock.unlock() }
        if let volume { self.volume = min(100, max(0, volume)) }
        if let muted { self.muted = muted }
        return (self.volume, self.muted)
    }

    /// Withholds the sound (parental lock) or gives it back.
    func withhold(_ on: Bool) {
        lock.withLock { withheld = on }
    }

    var level: (volume: Int, muted: Bool) {
        lock.lock()
        defer { lock.unlock() }
        return (volume, muted)
    }

    /// The timeline time being heard now (or, before sound flows, the wall clock since `begin`);
    /// paused, where the pause began.
    var clock: Double? {
        lock.withLock { paused?.at ?? heardNow() }
    }

    /// `clock` (the lock held), not counting a pause.
    private func heardNow() -> Double? {
        guard let origin else { return nil }
        let wallClock = origin.time + (wall() - origin.wall)
        guard let writtenUntil, let sink else { return wallClock }
        let rate = Double(sampleRate)
        let ahead = Double(framesWritten) / rate - (wall() - origin.wall)
        let held = max(Double(sink.delayFrames) / rate, ahead)
        return writtenUntil - held
    }

    /// Pauses the playing channel: the clock stands still where it is heard now, the sound fades
    /// out (`fadeSeconds`) and silence follows; the device runs on, holding little.
    func pause() {
        lock.withLock {
            guard paused == nil, playback != nil, let at = heardNow() else { return }
            let held = writtenUntil.map { max(0, Int((($0 - at) * Double(sampleRate)).rounded())) } ?? 0
            paused = Paused(at: at, held: held, wall: wall(), fadeLeft: Int(Self.fadeSeconds * Double(sampleRate)))
        }
    }

    /// Plays on from where the pause began: the pictures from the one paused on, the sound from
    /// the same time (faded in; what was heard while it faded is not heard again).
    func resume() {
        lock.withLock {
            guard let pause = paused else { return }
            paused = nil
            origin = (pause.at, wall())
            writtenUntil = pause.at
            framesWritten = 0
            soundFrames = 0
        }
    }

    var isPaused: Bool { lock.withLock { paused != nil } }

    /// One period while paused: the channel's sound fading out, then silence, kept about two
    /// periods ahead of the wall clock; or how long to wait first.
    private func pausedOnce(_ device: SoundDevice, periodFrames: Int) -> Double? {
        lock.lock()
        guard var pause = paused else {
            lock.unlock()
            return 0
        }
        let playback = self.playback, from = writtenUntil
        let gain = muted || withheld ? Float(0) : Float(volume * volume) / 10_000
        lock.unlock()
        let rate = Double(sampleRate)
        let ahead = Double(pause.held + pause.written) / rate - (wall() - pause.wall)
        if ahead > 2 * Double(periodFrames) / rate { return ahead - 2 * Double(periodFrames) / rate }
        var chunk = silence
        var faded = 0  // frames of the channel's sound in the chunk
        if pause.fadeLeft > 0, let playback, let from, let taken = playback.takeAudio(frames: min(periodFrames, pause.fadeLeft), from: from) {
            chunk = taken.samples
            faded = chunk.count / 2
            let left = pause.fadeLeft, ramp = Self.fadeSeconds * rate
            Self.scale(&chunk, gain: gain) { Float(max(0, Double(left - $0) / ramp)) }
        }
        pause.fadeLeft = faded == 0 ? 0 : pause.fadeLeft - faded
        chunk.withUnsafeBufferPointer { device.write($0) }
        pause.written += chunk.count / 2
        lock.withLock {
            guard paused != nil else { return }
            paused = pause
            if let from, faded > 0 { writtenUntil = from + Double(faded) / rate }
        }
        return nil
    }

    private func loop(_ device: SoundDevice) {
        while true {
            if let wait = pumpOnce(device) { Thread.sleep(forTimeInterval: wait) }
        }
    }

    /// Writes what is due now (a pump stepped by hand): as much as the device's buffer
    /// may hold ahead of the clock. At most `limit` periods.
    func step(limit: Int = 1000) {
        guard let device = steppedDevice else { return }
        for _ in 0..<limit {
            if pumpOnce(device) != nil { return }
        }
    }

    /// Writes one period: the playing channel's sound, the old one fading out, or silence;
    /// or returns how long to wait first (nothing on screen yet, or the device's buffer full).
    /// (One period per call, not one long loop body: the optimizer of Swift 6.3 never
    /// finished with the loop written inline.)
    private func pumpOnce(_ device: SoundDevice) -> Double? {
        // The device may have changed (lost, or back): its period and its delay are the clock's.
        let periodFrames = max(device.sink.periodFrames, 240)
        if silence.count != periodFrames * 2 { silence = [Int16](repeating: 0, count: periodFrames * 2) }
        lock.withLock { sink = device.sink }
        if isPaused { return pausedOnce(device, periodFrames: periodFrames) }
        lock.lock()
        let playback = self.playback
        let origin = self.origin
        // Until sound flows the timeline runs on the wall clock: sound that arrives late
        // (a separate audio rendition) starts where the picture is now, not where it began.
        let from = writtenUntil ?? origin.map { $0.time + (wall() - $0.wall) } ?? 0
        let fading = self.fading
        let gain = muted || withheld ? Float(0) : Float(volume * volume) / 10_000
        let faded = framesWritten
        let heard = soundFrames
        lock.unlock()
        // Nothing on screen yet: nothing to play.
        guard let origin else { return 0.005 }
        // Stay no more than the device's buffer ahead of the wall clock.
        let ahead = Double(faded) / Double(sampleRate) - (wall() - origin.wall)
        let allowed = Double(device.sink.bufferFrames) / Double(sampleRate)
        if ahead > allowed { return ahead - allowed }
        var chunk = silence
        var chunkTime: Double?
        var lead = 0
        let ramp = Self.fadeSeconds * Double(sampleRate)
        if let playback, let taken = playback.takeAudio(frames: periodFrames, from: from) {
            chunk = taken.samples
            chunkTime = taken.time
            level(&chunk, for: playback)
            // Fade in from where the sound starts (silence may lead it in when it starts after the picture).
            Self.scale(&chunk, gain: gain) { Float(min(1, Double(max(0, heard + $0 - taken.lead)) / ramp)) }
            lead = taken.lead
        } else if let fading {
            chunk = fadeOut(fading, periodFrames: periodFrames, gain: gain * lock.withLock { fadingGain }, ramp: ramp) ?? silence
        }
        chunk.withUnsafeBufferPointer { device.write($0) }
        recordWrite(of: chunk.count / 2, at: chunkTime, lead: lead, for: playback)
        return nil
    }

    /// Levels the channel's sound (the leveller is out of the lock while it works).
    private func level(_ chunk: inout [Int16], for playback: any ChannelStream) {
        lock.lock()
        guard var leveller = self.leveller, self.playback === playback else {
            lock.unlock()
            return
        }
        self.leveller = nil
        lock.unlock()
        leveller.process(&chunk)
        lock.withLock {
            guard self.playback === playback, self.leveller == nil else { return }
            self.leveller = leveller
            levelGain = leveller.gainDB
        }
    }

    /// The next piece of the old channel's sound, fading; nil once it is over.
    private func fadeOut(_ fading: (playback: any ChannelStream, from: Double, framesLeft: Int), periodFrames: Int,
                         gain: Float, ramp: Double) -> [Int16]? {
        let taken = fading.playback.takeAudio(frames: min(periodFrames, fading.framesLeft), from: fading.from)
        var chunk = taken?.samples
        if chunk != nil {
            let left = fading.framesLeft
            Self.scale(&chunk!, gain: gain) { Float(max(0, Double(left - $0) / ramp)) }
        }
        let frames = (chunk?.count ?? 0) / 2
        lock.lock()
        if let current = self.fading, current.playback === fading.playback {
            self.fading = chunk == nil || frames >= fading.framesLeft
                ? nil : (fading.playback, fading.from + Double(frames) / Double(sampleRate), fading.framesLeft - frames)
            if self.fading == nil && self.playback == nil { self.origin = nil }
        }
        lock.unlock()
        return chunk
    }

    /// Moves the clock on by what was written (`lead` of it silence before the channel's sound).
    private func recordWrite(of frames: Int, at chunkTime: Double?, lead: Int, for playback: (any ChannelStream)?) {
        var underrun = false
        lock.lock()
        defer {
            lock.unlock()
            if underrun { onUnderrun() }
        }
        guard self.origin != nil, self.playback === playback else { return }
        framesWritten += frames
        if let chunkTime {
            writtenUntil = chunkTime + Double(frames) / Double(sampleRate)
            soundFrames += frames - lead
            starved = false
            if !started, let playback {
                started = true
                onStarted(playback, !(sink is SystemClockSink))
            }
        } else if let written = writtenUntil {
            // An underrun: silence stands in, and the timeline moves on with it.
            writtenUntil = written + Double(frames) / Double(sampleRate)
            underrun = playback != nil && !starved
            starved = playback != nil
        }
    }
}
