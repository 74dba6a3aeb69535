import Foundation
import Synchronization
import ZapperCore
import ZapperMedia

/// How many threads a video decoder gets in this process: one, until one is found too
/// slow on this box (`DecodeLoad`); from then on, pictures that large and larger are
/// decoded with FFmpeg's frame threads from the start, on every channel. A box's
/// processor does not change while it runs.
///
/// Off in the product for now (`shared` starts every decoder threaded): a box too slow for a
/// stream (the appliance test's QEMU TCG guest) must then find one thread too slow, then frame
/// threads, before the picture size comes down (`DecodeCeiling`), and loses sound meanwhile.
public final class DecoderThreads: Sendable {
    public static let shared = DecoderThreads(oneThreadFirst: false)
    /// `DecodeLoad.busyShare` of every watch.
    public let busyShare: Double
    /// Whether decoders start on one thread at all.
    public let oneThreadFirst: Bool
    /// The fewest pixels a picture had when one thread was too slow for it.
    private let tooSlowFrom = Mutex<Int?>(nil)

    public init(busyShare: Double = 0.5, oneThreadFirst: Bool = true) {
        self.busyShare = busyShare
        self.oneThreadFirst = oneThreadFirst
    }

    /// 1, or 0 (FFmpeg's choice: frame threads) for pictures one thread was too slow for.
    public func threads(forPixels pixels: Int) -> Int {
        guard oneThreadFirst else { return 0 }
        return tooSlowFrom.withLock { from in from.map { pixels >= $0 } ?? false } ? 0 : 1
    }

    /// The fewest pixels one thread was found too slow for; nil while it never was.
    public var threadedFrom: Int? { tooSlowFrom.withLock { $0 } }

    func tooSlow(pixels: Int) {
        tooSlowFrom.withLock { $0 = min($0 ?? pixels, pixels) }
    }
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
    /// slow, says so for a person reading the log and for the process's later decoders.
    func watch(_ decoder: Decoder, picture frame: Frame, time: Double?, stream: Int32, watches: inout [Int32: DecoderWatch]) {
        guard decoder.kind == .video, decoder.threads == 1 else { return }
        var watch = watches[stream] ?? DecoderWatch(load: DecodeLoad(busyShare: decoderThreads.busyShare))
        let busy = decoder.busySeconds - watch.seen
        watch.seen = decoder.busySeconds
        if !watch.wantsThreads, watch.load.record(busy: busy, time: time) {
            watch.wantsThreads = true
            let pixels = frame.width * frame.height
            if decoderThreads.threadedFrom.map({ pixels < $0 }) ?? true {
                FileHandle.standardError.write(Data("zapper: channel \(channel.number): one thread decodes \(frame.width)x\(frame.height) too slowly here; FFmpeg's frame threads take over at the next key frame\n".utf8))
            }
            decoderThreads.tooSlow(pixels: pixels)
        }
        watches[stream] = watch
    }
}
