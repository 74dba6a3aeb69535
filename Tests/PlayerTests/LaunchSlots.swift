import Foundation
import Synchronization

/// How many real zappers run at once. The end-to-end suites run side by side with
/// everything else; each zapper decodes, composes and plays in real time, so more of
/// them than the two cores can carry would make every one of them late. A test waits
/// for a place before its zapper starts (its timings start after that), suspended,
/// holding no thread; a test that must have the machine's zapper time to itself (the
/// A/V measurement) takes every place, and only when no test waits for a single one:
/// it runs once the others have had their zappers (at the end of a run), instead of
/// leaving the cores idle in the middle while the tests queued behind it wait. A test
/// starts its zappers one after another (one waiting for a place while its last still
/// holds one would wait behind a test that needs all).
actor LaunchSlots {
    static let zappers = LaunchSlots(count: 5)
    /// Set while a test holds every place (`exclusively`): its own zapper needs none.
    @TaskLocal static var holdingAll = false

    let count: Int
    private var free: Int
    /// In the order they came, each with the places it needs; those waiting for a single
    /// place go before those waiting for every place.
    private var waiting: [(places: Int, continuation: CheckedContinuation<Void, Never>)] = []

    init(count: Int) {
        self.count = count
        free = count
    }

    func take(_ places: Int = 1) async {
        let ahead = places < count ? waiting.contains { $0.places < count } : !waiting.isEmpty
        if !ahead, free >= places {
            free -= places
            return
        }
        await withCheckedContinuation { waiting.append((places, $0)) }
    }

    func give(_ places: Int = 1) {
        free += places
        while let next = waiting.firstIndex(where: { $0.places < count }) ?? waiting.indices.first,
              waiting[next].places <= free {
            free -= waiting[next].places
            waiting.remove(at: next).continuation.resume()
        }
    }

    /// Runs `body` holding every place: the zappers it starts run with no other beside them.
    nonisolated func exclusively<T>(_ body: () async throws -> T) async rethrows -> T {
        await take(count)
        do {
            let result = try await Self.$holdingAll.withValue(true) { try await body() }
            await give(count)
            return result
        } catch {
            await give(count)
            throw error
        }
    }
}

/// One zapper's place: taken once, given back once (at its exit, or when the test lets it go).
final class SlotHold: Sendable {
    private let slots: LaunchSlots
    /// Taken and not yet given back.
    private let held = Mutex(false)

    init(_ slots: LaunchSlots) { self.slots = slots }

    func take() async {
        if LaunchSlots.holdingAll { return }
        await slots.take()
        held.withLock { $0 = true }
    }

    func giveBack() {
        let give = held.withLock { held in
            defer { held = false }
            return held
        }
        if give { Task { await slots.give() } }
    }
}

/// A process's exit, told once by its termination handler: those waiting for it are called then
/// (or at once, after it).
final class ExitSignal: Sendable {
    private let state = Mutex<(exited: Bool, waiting: [@Sendable () -> Void])>((false, []))

    var hasExited: Bool { state.withLock { $0.exited } }

    func exited() {
        let waiting = state.withLock { state in
            defer { state = (true, []) }
            return state.exited ? [] : state.waiting
        }
        for call in waiting { call() }
    }

    func whenExited(_ call: @escaping @Sendable () -> Void) {
        let now = state.withLock { state in
            if !state.exited { state.waiting.append(call) }
            return state.exited
        }
        if now { call() }
    }
}
