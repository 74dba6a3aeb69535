import Foundation

/// Fetches small things whole (channel logos): http(s) on a box, a table in tests.
public protocol ByteLoader: Sendable {
    /// The bytes at `url`, at most `limit` of them (more is an error).
    func bytes(_ url: URL, limit: Int) async throws -> [UInt8]
    /// The bytes of `url`'s last good fetch kept from an earlier run, for when it cannot be
    /// fetched now (a box starting offline); nil when none is kept.
    func keptCopy(of url: URL, limit: Int) -> [UInt8]?
}

extension ByteLoader {
    /// A loader that keeps nothing.
    public func keptCopy(of url: URL, limit: Int) -> [UInt8]? { nil }
}

/// Reads the programme guide (XMLTV, a file or http(s)) for the channels asked for.
public protocol GuideLoader: Sendable {
    /// Where the guide comes from, as the log names it.
    var source: String { get }
    /// The guide's programmes within `window` for the `wanted` channels, and what was wrong with some of them.
    func load(window: GuideWindow, wanted: GuideWanted) async throws -> GuideRead
}

/// A read of the guide: what came, what was wrong, and whether it is the copy of an earlier read.
public struct GuideRead: Sendable {
    public var guide: Guide
    public var problems: [String]
    /// Set when no guide could be read now and the copy of the last good read stands in: when that was.
    public var staleSince: Date?

    public init(guide: Guide, problems: [String] = [], staleSince: Date? = nil) {
        self.guide = guide
        self.problems = problems
        self.staleSince = staleSince
    }
}

/// Keeps the state that outlives the process (atomically, durably on a box).
public protocol StateSaving: Sendable {
    func save(_ state: ZapperState) throws
}
