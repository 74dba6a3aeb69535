import Foundation

/// What zapper's allocator (jemalloc) holds, from its `zapper_allocator_bytes` metric: with the
/// RSS it tells live data from pages not given back yet and from memory that is not the
/// allocator's (thread stacks, mappings). MB.
struct AllocatorScrape {
    var allocatedMB: Double
    var activeMB: Double
    var metadataMB: Double
    var residentMB: Double
    var dirtyMB: Double

    /// The metrics' address from zapper's words on stderr (`zapper: metrics: http://127.0.0.1:PORT/metrics`).
    static func url(zapperSaid text: String) -> String? {
        let said = "zapper: metrics: "
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(said + "http://") }) else { return nil }
        return String(line.dropFirst(said.count))
    }

    /// One scrape; nil when it fails or zapper's allocator is not jemalloc (no such series).
    static func read(_ url: String) -> AllocatorScrape? {
        guard let text = try? HTTP.text(url) else { return nil }
        func megabytes(_ state: String) -> Double? {
            let series = "zapper_allocator_bytes{state=\"\(state)\"} "
            return text.split(separator: "\n").first { $0.hasPrefix(series) }
                .flatMap { Double($0.dropFirst(series.count)) }.map { $0 / 1_048_576 }
        }
        guard let allocated = megabytes("allocated"), let active = megabytes("active"), let metadata = megabytes("metadata"),
              let resident = megabytes("resident"), let dirty = megabytes("dirty") else { return nil }
        return AllocatorScrape(allocatedMB: allocated, activeMB: active, metadataMB: metadata, residentMB: resident, dirtyMB: dirty)
    }

    /// Each figure the median of `readings`' (nil: none).
    static func median(of readings: [AllocatorScrape]) -> AllocatorScrape? {
        guard !readings.isEmpty else { return nil }
        func middle(_ value: (AllocatorScrape) -> Double) -> Double { readings.map(value).sorted()[readings.count / 2] }
        return AllocatorScrape(allocatedMB: middle(\.allocatedMB), activeMB: middle(\.activeMB), metadataMB: middle(\.metadataMB),
                               residentMB: middle(\.residentMB), dirtyMB: middle(\.dirtyMB))
    }

    /// "live 43.2, slack 2.1, metadata 4.3, dirty 0.1, resident 50.2": live data, the unused room in
    /// the pages holding it, jemalloc's bookkeeping, freed pages not given back, all its pages in memory.
    var cells: String {
        String(format: "live %.1f, slack %.1f, metadata %.1f, dirty %.1f, resident %.1f", allocatedMB, activeMB - allocatedMB,
               metadataMB, dirtyMB, residentMB)
    }
}
