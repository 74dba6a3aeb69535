import Foundation
import Testing
import TestSupport

/// `Sources/zapper/README.md`'s option synopsis held to the binary's own `--help`: every option
/// `zapper --help` and `zapper check --help` list is in the synopsis, and the synopsis names no
/// option the binary does not have (a subcommand's own `--help` aside).
@Suite struct OptionsReferenceTests {
    /// The `--options` a help text's option lines list (`--cec-claim/--no-cec-claim` gives both).
    static func helpOptions(_ help: String) -> Set<String> {
        Set(help.split(separator: "\n").filter { $0.hasPrefix("  -") }.flatMap { line in
            line.split(separator: " ").prefix { $0.hasPrefix("-") }.flatMap { $0.split(separator: "/") }
                .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ",")) }.filter { $0.hasPrefix("--") }
        })
    }

    /// The `--options` of the synopsis lines that start with `zapper check` or with `zapper` alone.
    static func synopsisOptions(_ readme: String) throws -> (zapper: Set<String>, check: Set<String>) {
        let section = try #require(readme.components(separatedBy: "## Options\n").dropFirst().first)
        let block = try #require(section.components(separatedBy: "```").dropFirst().first)
        var zapper: Set<String> = [], check: Set<String> = [], inCheck = false
        for line in block.split(separator: "\n") {
            if line.hasPrefix("zapper") { inCheck = line.hasPrefix("zapper check") }
            let names = line.matches(of: /--[a-z][a-z-]*/).map { String($0.output) }
            if inCheck { check.formUnion(names) } else { zapper.formUnion(names) }
        }
        return (zapper, check)
    }

    @Test func theSynopsisListsEveryOptionOfTheBinary() async throws {
        let binary = Repo.productsDirectory.appendingPathComponent("zapper").path
        let readme = try String(contentsOf: Repo.root.appendingPathComponent("Sources/zapper/README.md"), encoding: .utf8)
        let synopsis = try Self.synopsisOptions(readme)
        for (arguments, shown) in [(["--help"], synopsis.zapper), (["check", "--help"], synopsis.check)] {
            let help = try await Tool.run(binary, arguments)
            #expect(help.status == 0, "\(help.stderr)")
            // Every subcommand has `--help`; the synopsis says it once, for zapper itself.
            let options = Self.helpOptions(String(decoding: help.stdout, as: UTF8.self)).subtracting(arguments.count > 1 ? ["--help"] : [])
            #expect(options.count > 3, "zapper \(arguments.joined(separator: " ")) listed \(options.sorted())")
            #expect(options.subtracting(shown).isEmpty, "zapper \(arguments.joined(separator: " ")): options the README's synopsis leaves out: \(options.subtracting(shown).sorted())")
            #expect(shown.subtracting(options).isEmpty, "zapper \(arguments.joined(separator: " ")): options in the README's synopsis it does not have: \(shown.subtracting(options).sorted())")
        }
    }

    @Test func helpLinesAreReadAsTheirOptions() {
        let help = "OPTIONS:\n  --lineup <lineup>  The lineup.\n                     --not-this\n  --cec-claim/--no-cec-claim\n  -h, --help  Help.\n"
        #expect(Self.helpOptions(help) == ["--lineup", "--cec-claim", "--no-cec-claim", "--help"])
    }
}
