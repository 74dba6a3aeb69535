import Foundation
import ZapperCore

/// The last good read of the guide, as a file (`GuideSnapshot`, JSON) written atomically after
/// each read that worked, for the next time no guide can be read (a box starting offline).
public struct GuideCache: Sendable {
    public let file: URL

    public init(file: URL) {
        self.file = file
    }

    public func save(_ guide: Guide, readAt: Date = Date()) throws {
        let data = try JSONEncoder().encode(GuideSnapshot(guide: guide, readAt: readAt))
        try data.write(to: file, options: .atomic)
    }

    /// The snapshot, or nil when there is none or it does not decode (nothing is lost: the next good read replaces it).
    public func load() -> GuideSnapshot? {
        guard let data = try? Data(contentsOf: file) else { return nil }
        return try? JSONDecoder().decode(GuideSnapshot.self, from: data)
    }
}
