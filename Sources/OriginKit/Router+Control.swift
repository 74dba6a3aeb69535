import Foundation

/// The origin's control routes (faults, uploads) and its index page.
extension OriginRouter {
    /// `GET /control/faults`, `PUT /control/faults/N` (body: a fault spec,
    /// replacing the channel's faults), `DELETE /control/faults/N`,
    /// `DELETE /control/faults`.
    func control(_ request: OriginRequest, _ parts: [String]) -> OriginReply {
        if parts.first == "uploads" { return uploads(request, Array(parts.dropFirst())) }
        guard parts.first == "faults" else { return .text(404, "control: only /control/faults and /control/uploads") }
        if parts.count == 1 {
            switch request.method {
            case "GET", "HEAD":
                let lines = faults.all.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value.spec)" }
                return .text(200, lines.isEmpty ? "no faults" : lines.joined(separator: "\n"))
            case "DELETE":
                faults.clearAll()
                return .text(200, "all faults cleared")
            default:
                return .text(405, "GET or DELETE /control/faults")
            }
        }
        guard parts.count == 2, let number = Int(parts[1]), catalog.channel(number: number) != nil else {
            return .text(404, "control: no such channel")
        }
        switch request.method {
        case "GET", "HEAD":
            return .text(200, faults.faults(channel: number).spec)
        case "PUT", "POST":
            let spec = String(decoding: request.body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            do {
                let set = try FaultSet(spec: spec)
                faults.set(set, channel: number, now: clock())
                return .text(200, set.isEmpty ? "channel \(number): no faults" : "channel \(number): \(set.spec)")
            } catch {
                return .text(400, "\(error)")
            }
        case "DELETE":
            faults.set(FaultSet(), channel: number, now: clock())
            return .text(200, "channel \(number): no faults")
        default:
            return .text(405, "GET, PUT or DELETE /control/faults/N")
        }
    }

    func index(baseURL: String) -> String {
        var lines = ["zapper-origin: live HLS demo channels", "",
                     "lineup: \(baseURL)/demo.m3u", "guide:  \(baseURL)/guide.xml",
                     "table:  \(baseURL)/channels.json", ""]
        for channel in catalog.channels {
            let number = String(repeating: " ", count: max(0, 3 - String(channel.number).count)) + "\(channel.number)"
            let name = channel.name.padding(toLength: 15, withPad: " ", startingAt: 0)
            lines.append("\(number)  \(name) \(baseURL)/ch/\(channel.number)/master.m3u8")
        }
        lines += ["", "AES-128 (key every \(SegmentEncryption.segmentsPerKey) segments): \(baseURL)/ch/N/\(SegmentEncryption.pathPrefix)/master.m3u8",
                  "fMP4 (EXT-X-MAP): \(baseURL)/ch/\(FragmentedMP4.channel)/\(FragmentedMP4.pathPrefix)/master.m3u8 (encrypted: …/\(SegmentEncryption.pathPrefix)/\(FragmentedMP4.pathPrefix)/master.m3u8)"]
        lines.append("byte ranges of one file: \(baseURL)/ch/N/\(Self.rangesFolder)/index.m3u8")
        lines.append("EXT-X-GAP and EXT-X-DEFINE: \(baseURL)/\(Self.shapesPrefix)/lineup.m3u")
        lines += SplitAudio.channels.map { "separate audio renditions: \(baseURL)/ch/\($0)/\(SplitAudio.masterFile)" }
        lines += CodecForms.all.map { "\($0.videoCodec.uppercased()) + \($0.audioCodec.uppercased()): \(baseURL)/ch/\(CodecForms.channel)/\($0.name)/index.m3u8" }
        lines += ["", "broadcast (raw MPEG-TS): \(baseURL)/broadcast.m3u, as HLS: \(baseURL)/broadcast-hls.m3u"]
        for channel in catalog.broadcastChannels {
            let number = String(repeating: " ", count: max(0, 3 - String(channel.number).count)) + "\(channel.number)"
            lines.append("\(number)  \(channel.name.padding(toLength: 15, withPad: " ", startingAt: 0)) \(baseURL)/broadcast/\(channel.number).ts")
        }
        lines.append("HDHomeRun (\(Self.tunerCount) tuners): \(baseURL)/\(Self.hdhomerunPrefix)/discover.json")
        lines += ["", "faults: curl -X PUT -d 'delay=3000,segment-404' \(baseURL)/control/faults/N",
                  "        curl -X DELETE \(baseURL)/control/faults/N"]
        return lines.joined(separator: "\n")
    }
}
