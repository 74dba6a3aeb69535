/// Tests that count this process's descriptors, and tests that hold many at once (a thousand
/// files, a flood of connections), take turns: a count taken beside a thousand descriptors
/// that come and go is no count. Each takes the census before it starts (suspended, holding
/// no thread) and gives it back when done.
public actor DescriptorCensus {
    public static let shared = DescriptorCensus()

    private var held = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Waits for the census to be free and takes it; `Hold.release()` gives it back.
    public func hold() async -> Hold {
        if held {
            await withCheckedContinuation { waiting.append($0) }
        } else {
            held = true
        }
        return Hold(census: self)
    }

    fileprivate func give() {
        if waiting.isEmpty { held = false } else { waiting.removeFirst().resume() }
    }

    /// The census taken; released once (`defer { hold.release() }`).
    public struct Hold: Sendable {
        let census: DescriptorCensus
        public func release() { Task { await census.give() } }
    }
}
