import Foundation
import Synchronization
import ZapperCore

/// The bytes warm neighbours fetched (playlists, segments and their heads), since the start:
/// what keeping them warm costs the line.
public enum WarmTraffic {
    private static let total = Atomic<Int>(0)

    public static var bytes: Int { total.load(ordering: .relaxed) }

    static func add(_ bytes: Int) {
        guard bytes > 0 else { return }
        total.add(bytes, ordering: .relaxed)
    }
}

/// The bandwidth the playing channels measured lately (bits per second), and the bytes warm
/// heads needed lately by kind of variant (`WarmHeadPlan`): what a new warm neighbour starts
/// from. A box has one (`shared`); a test may keep its own.
///
/// The estimate is the box's own, every download of a playing channel weighted by how long it
/// took, not the last playing session's. A session just promoted has measured little but
/// small transfers, timed from the request and so bounded by the round trip: after Captions
/// Ten (a still picture, 52 kB segments) its estimate over a 40 ms round trip was 3.9 Mbit/s on
/// a 20 Mbit/s line, and the neighbours started then kept 240p heads; one 41 ms download now
/// moves the box's estimate 1.4 % of the way to its own rate (`BandwidthEstimator`'s fast half-life
/// is 2 s of downloading).
public final class WarmMemory: Sendable {
    public static let shared = WarmMemory()
    private let state = Mutex<(estimator: BandwidthEstimator, heads: [Int: Int])>((BandwidthEstimator(), [:]))

    public init() {}

    public var estimate: Double? { state.withLock { $0.estimator.estimate } }
    public var heads: [Int: Int] { state.withLock { $0.heads } }

    /// A playing channel downloaded `bytes` in `seconds`.
    public func measured(bytes: Int, seconds: Double) {
        state.withLock { $0.estimator.add(bytes: bytes, seconds: seconds) }
    }

    /// Takes `estimate` (bits per second) as measured (a test's line).
    public func assume(_ estimate: Double) {
        state.withLock { $0.estimator.assume(estimate) }
    }

    /// Takes in what a neighbour's plan has seen (several neighbours run at once).
    func remember(heads: [Int: Int]) {
        state.withLock { state in
            state.heads.merge(heads) { $1 }
            if state.heads.count > WarmHeadPlan.maxRemembered { state.heads = heads }
        }
    }
}
