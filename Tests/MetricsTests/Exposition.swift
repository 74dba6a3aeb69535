import Foundation
import ZapperMetrics

/// A scrape read back: each sample's value by its line's name and labels as written
/// (`zapper_tunes_total{reason="next"}`), and the metrics' `# HELP` and `# TYPE` lines.
struct Exposition {
    var samples: [String: Double] = [:]
    var help: [String: String] = [:]
    var types: [String: String] = [:]

    init(_ text: String) {
        for line in text.split(separator: "\n") {
            if line.hasPrefix("# HELP ") {
                let rest = line.dropFirst(7).split(separator: " ", maxSplits: 1)
                help[String(rest[0])] = rest.count > 1 ? String(rest[1]) : ""
            } else if line.hasPrefix("# TYPE ") {
                let rest = line.dropFirst(7).split(separator: " ")
                types[String(rest[0])] = String(rest[1])
            } else if let space = line.lastIndex(of: " ") {
                samples[String(line[..<space])] = Double(line[line.index(after: space)...])
            }
        }
    }

    init(_ metrics: PlayerMetrics) { self.init(metrics.exposition()) }

    subscript(_ key: String) -> Double? { samples[key] }

    /// The samples of one metric (its histogram's lines too).
    func named(_ prefix: String) -> [String: Double] { samples.filter { $0.key.hasPrefix(prefix) } }
}
