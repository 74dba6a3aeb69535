extension Tuner {
    /// The channel `delta` steps from `target` through `ring` (in `channels` order,
    /// wrapping at its ends); an empty or absent ring is all of `channels`. From a
    /// target outside the ring, the first step lands on the ring's next (or previous)
    /// channel after it in `channels` order.
    static func step(from target: Int, by delta: Int, in channels: [Int], ring: [Int]?) -> Int {
        let members = Set(ring ?? [])
        let ring = members.isEmpty ? channels : channels.filter(members.contains)
        guard !ring.isEmpty, delta != 0 else { return target }
        let count = ring.count
        if let index = ring.firstIndex(of: target) {
            return ring[((index + delta % count) % count + count) % count]
        }
        // Outside the ring: where the target would stand among the ring's channels.
        let position = channels.firstIndex(of: target) ?? 0
        let order = Dictionary(channels.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let after = ring.firstIndex { (order[$0] ?? 0) > position } ?? count
        let first = delta > 0 ? after % count : (after - 1 + count) % count
        let rest = delta > 0 ? delta - 1 : delta + 1
        return ring[((first + rest % count) % count + count) % count]
    }
}
