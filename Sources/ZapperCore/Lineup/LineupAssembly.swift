import Foundation

/// What every lineup's entries become, whatever their format (M3U Plus, an HDHomeRun's
/// `lineup.json`): duplicates merged into one channel with backup sources, numbers given
/// (`tvg-chno` where it is given and free, else the next free one), logos checked, names
/// bounded. Problems go to `problem` with the entry's line.
extension M3UPlusParser {
    static func assemble(_ entries: [Entry], mergeDuplicates: Bool, problem: (Int, String) -> Void) -> [LineupChannel] {
        let merged = merge(entries, enabled: mergeDuplicates, problem: problem)
        // Numbers, after merging (so merged entries leave no gaps): tvg-chno where given and free,
        // else the next free number. A merged channel has its first entry's.
        var taken = Set<Int>()
        var wanted: [Int?] = []
        for (entry, _, _, _) in merged {
            guard let text = entry.attributes["tvg-chno"] ?? entry.attributes["channel-number"] else {
                wanted.append(nil)
                continue
            }
            if let number = Int(Substring(text).trimmingSpaces), number > 0, taken.insert(number).inserted {
                wanted.append(number)
            } else {
                problem(entry.line, "tvg-chno \"\(text)\" is not a free positive number; numbered automatically")
                wanted.append(nil)
            }
        }
        var next = 1
        var channels: [LineupChannel] = []
        for ((entry, url, headers, backups), number) in zip(merged, wanted) {
            let assigned: Int
            if let number {
                assigned = number
            } else {
                while taken.contains(next) { next += 1 }
                assigned = next
                taken.insert(next)
            }
            var logo: URL?
            if let text = entry.attributes["tvg-logo"], !text.isEmpty {
                switch MediaURLPolicy.check(text) {
                case .success(let url): logo = url
                case .failure(let rejection): problem(entry.line, "logo \(rejection); ignored")
                }
            }
            let name = String((entry.name.isEmpty ? "Channel \(assigned)" : entry.name).prefix(LineupLimits.nameCharacters))
            let group = entry.attributes["group-title"].flatMap { $0.isEmpty ? nil : $0 } ?? entry.group
            var channel = LineupChannel(number: assigned, name: name, url: url,
                                        guideID: entry.attributes["tvg-id"].flatMap { $0.isEmpty ? nil : $0 },
                                        logo: logo, group: group, rating: rating(entry.attributes),
                                        attributes: entry.attributes, headers: headers, line: entry.line, backups: backups)
            if let text = entry.attributes["tvg-shift"] {
                switch GuideShift.hours(text) {
                case .success(let hours): channel.guideShift = hours
                case .failure(let reason): problem(entry.line, "tvg-shift \(reason); ignored")
                }
            }
            channels.append(channel)
        }
        return channels
    }

    /// The entries that are one channel merged (`DuplicateMerge`): the first of each with its backups.
    static func merge(_ entries: [Entry], enabled: Bool, problem: (Int, String) -> Void)
        -> [(pending: Pending, url: URL, headers: RequestHeaders, backups: [LineupSource])] {
        let keys = entries.map { entry in
            DuplicateMerge.Entry(guideID: entry.pending.attributes["tvg-id"], name: entry.pending.name,
                                 source: LineupSource(url: entry.url, headers: entry.headers, line: entry.pending.line))
        }
        let grouped = DuplicateMerge.group(keys, enabled: enabled)
        for index in grouped.repeated {
            problem(entries[index].pending.line, "repeats a stream of \"\(keys[index].name)\" above; skipped")
        }
        for index in grouped.overflow {
            problem(entries[index].pending.line,
                    "\"\(keys[index].name)\" has more than \(LineupLimits.sourcesPerChannel) sources; this one is a channel of its own")
        }
        return grouped.channels.map { group in
            let first = entries[group[0]]
            return (first.pending, first.url, first.headers, group.dropFirst().map { keys[$0].source })
        }
    }
}
