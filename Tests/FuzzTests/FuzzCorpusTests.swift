import Foundation
import Testing
import ZapperFuzzTargets

/// The fuzz targets' seeds and every input a fuzzer ever crashed on
/// (`fuzz/regressions/TARGET/`), run through the same code as `zapper-fuzz`:
/// none may trap (a trap ends this test process) or take long.
@Suite struct FuzzCorpusTests {
    static let fuzz = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("fuzz")

    static func inputs(_ folder: String, _ target: FuzzTarget) -> [URL] {
        let directory = fuzz.appendingPathComponent(folder).appendingPathComponent(target.rawValue)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { directory.appendingPathComponent($0) }
    }

    @Test(arguments: FuzzTarget.allCases)
    func seedsAndRegressionsRunClean(_ target: FuzzTarget) throws {
        let seeds = Self.inputs("seeds", target)
        #expect(!seeds.isEmpty, "no seeds for \(target.rawValue) in fuzz/seeds")
        for input in seeds + Self.inputs("regressions", target) {
            let started = Date()
            target.run([UInt8](try Data(contentsOf: input)))
            #expect(Date().timeIntervalSince(started) < 5, "\(input.lastPathComponent) took \(Date().timeIntervalSince(started)) s")
        }
    }
}
