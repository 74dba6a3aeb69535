import Foundation
import Testing
import ZapperFuzzTargets

/// The fuzz targets' seeds and every input a fuzzer ever crashed on
/// (`Regressions/TARGET/` beside this file), run through the same code as `zapper-fuzz`:
/// none may trap (a trap ends this test process) or take long.
@Suite struct FuzzCorpusTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    static func inputs(_ name: String, _ target: FuzzTarget) -> [URL] {
        let directory = Self.folder.appendingPathComponent(name).appendingPathComponent(target.rawValue)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { directory.appendingPathComponent($0) }
    }

    @Test(arguments: FuzzTarget.allCases)
    func seedsAndRegressionsRunClean(_ target: FuzzTarget) throws {
        let seeds = Self.inputs("Seeds", target)
        #expect(!seeds.isEmpty, "no seeds for \(target.rawValue) in Tests/FuzzTests/Seeds")
        for input in seeds + Self.inputs("Regressions", target) {
            let started = Date()
            target.run([UInt8](try Data(contentsOf: input)))
            #expect(Date().timeIntervalSince(started) < 5, "\(input.lastPathComponent) took \(Date().timeIntervalSince(started)) s")
        }
    }
}
