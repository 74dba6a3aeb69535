import Foundation
import ZapperCore
import ZapperMedia

/// How many threads a video decoder gets in this process: one, until one is found too
/// slow on this box (`DecodeLoad`); from then on, while that judgement holds (`SpeedVerdict`:
/// 10 minutes, then longer each time it is made again; one made while the box was busy with
/// something else must not cost it the frame threads' memory for months), pictures that large
/// and larger are decoded with FFmpeg's frame threads from the start, on every channel.
/// One thread found far too slow (frame threads would not keep up either) also brings the
/// box's `DecodeCeiling` down at once.
///
/// On in the product since a group that falls 0.5 s behind is given up (`CatchUp`) and warm
/// neighbours play behind the live edge: before, on a box too slow for a stream (the appliance
/// test's QEMU TCG guest) one thread took seconds to be found too slow, and channel 2 was heard
/// for 18-43 % of its time; with both, 81 % (bochs) and 85 % (virtio-gpu) in one run.
public final class DecoderThreads: Sendable {
    public static let shared = DecoderThreads(oneThreadFirst: true)
    /// `DecodeLoad.busyShare` of every watch.
    public let busyShare: Double
    /// Whether decoders start on one thread at all.
    public let oneThreadFirst: Bool
    /// A threaded decoder's frame threads: one per processor this process may run on and one
    /// more (FFmpeg's own choice). One per processor held 7 MB less at 1080p on the 2-core
    /// development machine for the same CPU, but a box too slow for the stream (the appliance
    /// test's QEMU guest) kept less of its sound with two than with three: not taken.
    public let frameThreads: Int
    /// The fewest pixels a picture had when one thread was too slow for it (`tooSlow(width:height:)`:
    /// how long that now holds when it is news).
    let judgement: SpeedJudgement

    /// `firstHold`: how long the first judgement holds (seconds on `now`, a monotonic clock).
    public init(busyShare: Double = 0.5, oneThreadFirst: Bool = true,
                processors: Int = ProcessInfo.processInfo.activeProcessorCount,
                firstHold: Double = SpeedVerdict.firstHold, now: @escaping @Sendable () -> Double = { SystemClock().monotonic }) {
        self.busyShare = busyShare
        self.oneThreadFirst = oneThreadFirst
        frameThreads = max(1, processors) + 1
        judgement = SpeedJudgement(firstHold: firstHold, now: now) { size, held in
            FileHandle.standardError.write(Data("zapper: one thread decodes \(size) again: the judgement that it was too slow lapsed after \(held)\n".utf8))
        }
    }

    /// 1, or `frameThreads` for pictures one thread was too slow for.
    public func threads(forPixels pixels: Int) -> Int {
        guard oneThreadFirst else { return frameThreads }
        return (threadedFrom.map { pixels >= $0 } ?? false) ? frameThreads : 1
    }

    /// The fewest pixels one thread was found too slow for, while that holds; nil otherwise.
    public var threadedFrom: Int? { judgement.pixels }
}

/// A one-thread video decoder's load as its pictures come out.
struct DecoderWatch {
    var load: DecodeLoad
    /// The decoder's `busySeconds` at its last picture.
    var seen = 0.0
    /// Found too slow: replaced at the stream's next key frame.
    var wantsThreads = false
}

extension ChannelPlayback {
    /// Counts a picture `decoder` put out against its watch; the first time it turns out too
    /// slow, says so for a person reading the log and for the process's later decoders. So
    /// slow that even its frame threads, each as fast as the one, could not keep up (a box
    /// far too slow for the stream), the box's ceiling comes down at once too, rather than
    /// after the frame threads have been found too slow in their turn.
    func watch(_ decoder: Decoder, busySeconds: Double, picture frame: Frame, time: Double?, stream: Int32, watches: inout [Int32: DecoderWatch]) {
        guard decoder.kind == .video, decoder.threads == 1 else { return }
        // A new decoder's watch counts from its start (what a deinterlacer did before it is not its).
        var watch = watches[stream] ?? DecoderWatch(load: DecodeLoad(busyShare: decoderThreads.busyShare), seen: busySeconds - decoder.busySeconds)
        let busy = busySeconds - watch.seen
        watch.seen = busySeconds
        if !watch.wantsThreads, let share = watch.load.closes(afterRecording: busy, time: time), share > decoderThreads.busyShare {
            wantThreads(width: frame.width, height: frame.height, watch: &watch)
            if share / Double(decoderThreads.frameThreads) > decodeCeiling.busyShare { lowerCeiling(width: frame.width, height: frame.height) }
        }
        watches[stream] = watch
    }

    /// A group of pictures skipped because a one-thread decoder fell behind the clock while
    /// segments waited (the box, not the network, was late): frame threads from the next
    /// key frame, as if a window had been too slow. A box far too slow for the stream falls
    /// behind before a window closes (at a third of real time, 0.5 s behind comes after about
    /// eight pictures of the window's 60), so the pictures decoded so far are judged as a
    /// closed window would be, the box's ceiling included.
    func fellBehind(stream: Int32, decoder: Decoder?, parameters: CodecParameters, watches: inout [Int32: DecoderWatch]) {
        guard let decoder, decoder.kind == .video, decoder.threads == 1 else { return }
        var watch = watches[stream] ?? DecoderWatch(load: DecodeLoad(busyShare: decoderThreads.busyShare))
        if !watch.wantsThreads {
            wantThreads(width: parameters.width, height: parameters.height, watch: &watch)
            if let share = watch.load.openShare(atLeast: Self.fewestJudged),
               share / Double(decoderThreads.frameThreads) > decodeCeiling.busyShare {
                lowerCeiling(width: parameters.width, height: parameters.height)
            }
        }
        watches[stream] = watch
    }

    /// The fewest pictures a window still open must hold to be judged when its decoder fell behind.
    static let fewestJudged = 5

    private func wantThreads(width: Int, height: Int, watch: inout DecoderWatch) {
        watch.wantsThreads = true
        if let hold = decoderThreads.judgement.tooSlow(width: width, height: height) {
            FileHandle.standardError.write(Data("zapper: channel \(channel.number): one thread decodes \(width)x\(height) too slowly here; frame threads take over at the next key frame, for \(hold)\n".utf8))
        }
    }
}
