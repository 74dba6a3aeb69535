import Foundation
import Synchronization

/// Tells a warm neighbour's session it was promoted: its pauses end at once (the rest of the
/// segment it kept the head of is fetched then, not at the next reload).
public final class PromotionSignal: Sendable {
    private struct State {
        var signalled = false
        var waiter: (id: Int, continuation: CheckedContinuation<Void, Never>)?
        /// The newest wait that ended (timer or cancellation) before its waiter was stored.
        var expired: Int?
        var nextID = 0
    }

    private let state = Mutex(State())

    public init() {}

    public var isSignalled: Bool { state.withLock { $0.signalled } }

    /// Ends the wait under way and every later one at once.
    public func signal() {
        let waiter = state.withLock { state in
            state.signalled = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.continuation.resume()
    }

    /// Waits `seconds`, or until signalled or the task is cancelled.
    func wait(seconds: Double) async {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        let timer = Task { [weak self] in
            try? await Task.sleep(for: .milliseconds(Int(max(seconds, 0) * 1000)))
            self?.end(id)
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state in
                    if state.signalled || state.expired == id { return true }
                    state.waiter = (id, continuation)
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            end(id)
        }
        timer.cancel()
    }

    /// Ends wait `id` (its time is up, or its task was cancelled).
    private func end(_ id: Int) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter, waiter.id == id else {
                state.expired = id
                return nil
            }
            state.waiter = nil
            return waiter.continuation
        }
        waiter?.resume()
    }
}
