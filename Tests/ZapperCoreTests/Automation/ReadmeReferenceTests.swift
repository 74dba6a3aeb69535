import Foundation
import Testing
import ZapperCore

/// The reference lists of `Sources/zapper/README.md` (the `zapper` executable's reference, beside
/// its code) held to the code's own catalogues: the default keymap as
/// `zapper --print-default-keymap` prints it, and every event `zapper --list-events` names.
struct ReadmeReferenceTests {
    static func readme() throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return try String(contentsOf: root.appendingPathComponent("Sources/zapper/README.md"), encoding: .utf8)
    }

    @Test func theKeymapSectionShowsTheDefaultsAsTheyAre() throws {
        let readme = try Self.readme()
        #expect(readme.contains("```\n" + Keymap.defaultsText.trimmingCharacters(in: .newlines) + "\n```"),
                "the README's keymap block differs from Keymap.defaultsText (zapper --print-default-keymap)")
    }

    @Test func everyEventIsDocumented() throws {
        let readme = try Self.readme()
        let missing = EventName.allCases.map(\.rawValue).filter { !readme.contains("`\($0)`") }
        #expect(missing.isEmpty, "events the README does not name: \(missing)")
    }
}
