import Foundation
import Testing
import TestSupport
import ZapperSettings

/// `Sources/zapper/README.md`'s configuration reference held to the reader's catalogue
/// (`ConfigSection`): every key the reader knows is shown in a TOML block of the README under its
/// section, and every key a block shows is one the reader knows.
@Suite struct ConfigReferenceTests {
    /// The keys the README's TOML blocks show, by section: `key = …` anywhere on a line (a
    /// comment's "and/or volume = 0…100" counts), the section from the last `[name]` or `[[name]]`.
    static func documentedKeys(_ readme: String) -> [String: Set<String>] {
        var keys: [String: Set<String>] = [:]
        var inBlock = false
        var section = ""
        let key = #/(?:^|[\s/,])([a-z][a-z-]*) = /#
        let header = /^\[\[?([a-z-]+)\]\]?/
        for line in readme.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                inBlock = line == "```toml"
                section = ""
                continue
            }
            guard inBlock else { continue }
            if let match = line.firstMatch(of: header) {
                section = String(match.1)
                keys[ConfigSection.root.rawValue, default: []].insert(section)
            }
            for match in line.matches(of: key) { keys[section, default: []].insert(String(match.1)) }
        }
        return keys
    }

    @Test func everyKeyTheReaderKnowsIsInTheReference() throws {
        let readme = try String(contentsOf: Repo.root.appendingPathComponent("Sources/zapper/README.md"), encoding: .utf8)
        let documented = Self.documentedKeys(readme)
        for section in ConfigSection.allCases {
            let shown = documented[section.rawValue] ?? []
            let name = section == .root ? "the top level" : "[\(section.rawValue)]"
            #expect(section.keys.subtracting(shown).isEmpty, "\(name): keys the README does not show: \(section.keys.subtracting(shown).sorted())")
            #expect(shown.subtracting(section.keys).isEmpty, "\(name): keys the README shows that the reader does not know: \(shown.subtracting(section.keys).sorted())")
        }
        #expect(Set(documented.keys).subtracting(ConfigSection.allCases.map(\.rawValue)).isEmpty, "sections the reader does not know: \(documented.keys.sorted())")
    }

    /// The test's own reading: a key shown under the wrong section, or not at all, is found.
    @Test func aMissingOrMisplacedKeyIsFound() {
        let keys = Self.documentedKeys("```toml\nlineup = \"x\"\n[sound]\ndelay-ms = 0  # or volume = 3\n```\n[api]\ntoken = \"t\"\n")
        #expect(keys[""] == ["lineup", "sound"])
        #expect(keys["sound"] == ["delay-ms", "volume"])
        #expect(keys["api"] == nil)
    }
}
