import Foundation

/// The cue tags of a media playlist. A cue is for automation only: a tag that
/// does not read (no ID, a bad number, a section that does not decode) is
/// skipped, and never fails the playlist.
extension HLSParser.State {
    static let cueTags: Set<Substring> = ["#EXT-X-DATERANGE", "#EXT-X-CUE-OUT", "#EXT-X-CUE-IN", "#EXT-X-CUE-OUT-CONT", "#EXT-OATCLS-SCTE35"]

    mutating func cue(_ tag: Substring, _ value: Substring) {
        switch tag {
        case "#EXT-X-DATERANGE":
            for cue in dateRange(value) where media.dateRanges.count < HLSCue.maxPerPlaylist {
                media.dateRanges.append(cue)
            }
        case "#EXT-X-CUE-OUT":
            // `30`, `30.000` or `DURATION=30`; the id is its segment's (`seq-N`), set when the segment comes.
            let duration = value.hasPrefix("DURATION=") ? value.dropFirst("DURATION=".count) : value
            pend(HLSCue(id: "", kind: .out, duration: HLSCue.duration(duration)))
        case "#EXT-X-CUE-IN":
            pend(HLSCue(id: "", kind: .in))
        case "#EXT-OATCLS-SCTE35":
            let text = value.trimmingSpaces
            guard text.utf8.count <= 2 * SpliceInsert.maxBytes, let data = Data(base64Encoded: String(text)),
                  let splice = SpliceInsert.parse([UInt8](data)) else { return }
            pend(HLSCue(id: String(splice.eventID), kind: splice.outOfNetwork ? .out : .in, duration: splice.duration))
        default:
            break  // EXT-X-CUE-OUT-CONT: a break already under way, told at its CUE-OUT
        }
    }

    /// A cue for the next segment. CUE-OUT and EXT-OATCLS-SCTE35 often both announce one
    /// break: one cue of a kind per segment, with the splice's id and the first duration given.
    private mutating func pend(_ cue: HLSCue) {
        if let index = pendingCues.firstIndex(where: { $0.kind == cue.kind }) {
            if pendingCues[index].id.isEmpty { pendingCues[index].id = cue.id }
            pendingCues[index].duration = pendingCues[index].duration ?? cue.duration
        } else if pendingCues.count < 4 {
            pendingCues.append(cue)
        }
    }

    /// The cues an EXT-X-DATERANGE makes: `out` and/or `in` for its SCTE-35 halves, else a marker.
    private func dateRange(_ value: Substring) -> [HLSCue] {
        guard let list = try? attributes(value), let id = HLSCue.text(list["ID"]), !id.isEmpty else { return [] }
        let cueClass = HLSCue.text(list["CLASS"])
        var duration = HLSCue.duration(list["DURATION"]) ?? HLSCue.duration(list["PLANNED-DURATION"])
        if duration == nil, let start = list["START-DATE"].flatMap(ISO8601Parser.date), let end = list["END-DATE"].flatMap(ISO8601Parser.date) {
            duration = HLSCue.duration(String(end.timeIntervalSince(start)))
        }
        func splice(_ name: String) -> SpliceInsert? {
            list[name].flatMap { SpliceInsert.bytes(hex: Substring($0)) }.flatMap(SpliceInsert.parse)
        }
        var cues: [HLSCue] = []
        if list["SCTE35-OUT"] != nil {
            cues.append(HLSCue(id: id, kind: .out, duration: duration ?? splice("SCTE35-OUT")?.duration, cueClass: cueClass))
        }
        if list["SCTE35-IN"] != nil {
            cues.append(HLSCue(id: id, kind: .in, cueClass: cueClass))
        }
        if cues.isEmpty, let command = splice("SCTE35-CMD") {
            cues.append(HLSCue(id: id, kind: command.outOfNetwork ? .out : .in, duration: duration ?? command.duration, cueClass: cueClass))
        }
        return cues.isEmpty ? [HLSCue(id: id, kind: .marker, duration: duration, cueClass: cueClass)] : cues
    }
}
