import Dispatch
import Foundation
import ZapperCore

/// The state that outlives the process (last channel, volume, picture mode,
/// per-channel audio and subtitle choices): changed by the loop, saved on a
/// queue of its own at most twice a second, each save atomic on a box (`StateSaving`).
final class StateKeeper {
    private(set) var state: ZapperState
    private let store: (any StateSaving)?
    private let queue = DispatchQueue(label: "zapper-state")
    private var dirty = false
    private var lastSave = Int.min / 2
    /// Saves come at least this far apart (ms); a change waits for the next one.
    static let interval = 500
    private let failureSaid = SaidOnce()
    /// The lineup's channel keys: the per-channel maps keep these first when full.
    private let lineup: Set<String>?

    init(store: (any StateSaving)?, state: ZapperState, lineup: Set<String>? = nil) {
        self.store = store
        self.lineup = lineup
        self.state = state.bounded(keeping: lineup)
    }

    /// Changes the state; it is saved at the next `flush` that is due.
    func change(_ body: (inout ZapperState) -> Void) {
        var changed = state
        body(&changed)
        if changed.isOverBound { changed = changed.bounded(keeping: lineup) }
        guard changed != state else { return }
        state = changed
        dirty = true
    }

    /// Saves when something changed and the last save is `interval` old;
    /// `waiting` saves now and returns when it is on disk (at exit).
    func flush(now: Int, waiting: Bool = false) {
        guard let store, dirty, waiting || now - lastSave >= Self.interval else {
            if waiting { queue.sync {} }
            return
        }
        dirty = false
        lastSave = now
        let snapshot = state
        let said = failureSaid
        queue.async {
            do {
                try store.save(snapshot)
                said.reset()
            } catch {
                said.once { Player.say("state not saved: \(error)") }
            }
        }
        if waiting { queue.sync {} }
    }
}

/// Says a repeating failure once, until it stops failing.
final class SaidOnce: @unchecked Sendable {
    private let lock = NSLock()
    private var said = false

    func once(_ say: () -> Void) {
        let first = lock.withLock { () -> Bool in
            defer { said = true }
            return !said
        }
        if first { say() }
    }

    func reset() { lock.withLock { said = false } }
}
