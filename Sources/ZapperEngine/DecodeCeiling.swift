import Foundation
import ZapperCore
import ZapperMedia

/// The picture size this box cannot decode in real time, even with FFmpeg's frame threads:
/// learnt from the playing channel's decoder: busy for most of the play time of two windows
/// of pictures in a row (`DecodeLoad`), or fallen behind the clock twice with segments
/// waiting (`CatchUp`: the box, not the network, was late; its other work, such as scaling
/// the pictures to the screen, counts too). From then on, while the judgement holds
/// (`SpeedVerdict`: 10 minutes, then longer each time it is made again), no variant that large
/// is fetched, on any channel (`HLSLiveSession`'s `pictureCeiling`), and what was fetched
/// before is skipped (`CatchUp`). Without it a box too slow for a stream keeps falling
/// behind the clock: its sound, decoded late, is dropped as old.
public final class DecodeCeiling: Sendable {
    /// The share of real time the decoding of a window may take before it is too slow.
    public let busyShare: Double
    /// Windows in a row that must be too slow, and groups that must have fallen behind
    /// (one may be a moment's load).
    public let windows: Int
    /// The judgement (`tooSlow(width:height:)`: how long it now holds when it lowers the ceiling).
    let judgement: SpeedJudgement

    /// `firstHold`: how long the first judgement holds (seconds on `now`, a monotonic clock).
    public init(busyShare: Double = 0.9, windows: Int = 2, firstHold: Double = SpeedVerdict.firstHold,
                now: @escaping @Sendable () -> Double = { SystemClock().monotonic }) {
        self.busyShare = busyShare
        self.windows = max(windows, 1)
        judgement = SpeedJudgement(firstHold: firstHold, now: now) { size, held in
            FileHandle.standardError.write(Data("zapper: variants as large as \(size) are fetched again: the judgement that this box decodes them too slowly lapsed after \(held)\n".utf8))
        }
    }

    /// The fewest pixels a picture had when its decoding was too slow, while that holds; nil otherwise.
    public var pixels: Int? { judgement.pixels }
}

/// A threaded video decoder's load while its channel plays, for the ceiling.
struct CeilingWatch {
    var load: DecodeLoad
    /// Too-busy windows in a row, and groups skipped behind the clock, of pictures of `size`.
    var slowWindows = 0
    var lateGroups = 0
    var size = (width: 0, height: 0)
    /// The decoder's `busySeconds` at its last picture.
    var seen = 0.0
    /// Groups skipped behind the clock with segments waiting, at its last picture (of any size).
    var behind = 0
}

extension ChannelPlayback {
    /// Counts a picture a threaded video decoder put out while this channel plays (not
    /// while warm), and `behind`, the groups of pictures skipped so far because decoding fell
    /// behind the clock while segments waited; when its size has been decoded too slowly
    /// (`DecodeCeiling`), lowers the box's ceiling and says so.
    func watchCeiling(_ decoder: Decoder, busySeconds: Double, picture frame: Frame, time: Double?, stream: Int32, behind: Int,
                      watches: inout [Int32: CeilingWatch]) {
        guard decoder.kind == .video, decoder.threads != 1, tag.serial != nil else { return }
        // A new decoder's watch counts from its start (what a deinterlacer did before it is not its).
        var watch = watches[stream] ?? CeilingWatch(load: DecodeLoad(busyShare: decodeCeiling.busyShare), seen: busySeconds - decoder.busySeconds)
        let busy = busySeconds - watch.seen
        if watch.size != (frame.width, frame.height) {
            // Another variant's pictures: their own judgement.
            watch = CeilingWatch(load: DecodeLoad(busyShare: decodeCeiling.busyShare), size: (frame.width, frame.height),
                                 seen: watch.seen, behind: watch.behind)
        }
        watch.seen = busySeconds
        watch.lateGroups += max(0, behind - watch.behind)
        watch.behind = behind
        if let share = watch.load.closes(afterRecording: busy, time: time) {
            watch.slowWindows = share > decodeCeiling.busyShare ? watch.slowWindows + 1 : 0
        }
        if watch.slowWindows >= decodeCeiling.windows || watch.lateGroups >= decodeCeiling.windows {
            watch.slowWindows = 0
            watch.lateGroups = 0
            lowerCeiling(width: frame.width, height: frame.height)
        }
        watches[stream] = watch
    }

    /// Pictures of `width`x`height` are decoded more slowly than they play while this channel
    /// plays (not while warm): the box's ceiling comes down to them, and the log says so.
    func lowerCeiling(width: Int, height: Int) {
        guard tag.serial != nil, let hold = decodeCeiling.judgement.tooSlow(width: width, height: height) else { return }
        FileHandle.standardError.write(Data("zapper: channel \(channel.number): this box decodes \(width)x\(height) more slowly than it plays; variants that large are left out for \(hold)\n".utf8))
    }
}
