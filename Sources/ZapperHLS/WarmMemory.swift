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

/// The bandwidth the playing channel measured lately (bits per second), and the bytes warm
/// heads needed lately by kind of variant (`WarmHeadPlan`): what a new warm neighbour starts
/// from. A box has one (`shared`); a test may keep its own.
public final class WarmMemory: Sendable {
    public static let shared = WarmMemory()
    private let state = Mutex<(estimate: Double?, heads: [Int: Int])>((nil, [:]))

    public init() {}

    public var estimate: Double? { state.withLock { $0.estimate } }
    public var heads: [Int: Int] { state.withLock { $0.heads } }

    public func measured(_ estimate: Double?) {
        guard let estimate, estimate.isFinite, estimate > 0 else { return }
        state.withLock { $0.estimate = estimate }
    }

    /// Takes in what a neighbour's plan has seen (several neighbours run at once).
    func remember(heads: [Int: Int]) {
        state.withLock { state in
            state.heads.merge(heads) { $1 }
            if state.heads.count > WarmHeadPlan.maxRemembered { state.heads = heads }
        }
    }
}
