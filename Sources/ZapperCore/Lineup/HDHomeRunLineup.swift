import Foundation

/// A network tuner's own lineup, as SiliconDust's HDHomeRun serves it: `lineup.json`, an
/// array of `{GuideNumber, GuideName, URL, HD, VideoCodec, AudioCodec, DRM, …}`, and the
/// device's `discover.json` (`FriendlyName`, `DeviceID`, `TunerCount`, `BaseURL`,
/// `LineupURL`). The box reads either shape, and a discover document with the lineup
/// it names under `Lineup` (how the fetch keeps the two together).
///
/// The rules:
/// - `GuideNumber` is the channel's number when it is a whole number; an ATSC
///   virtual channel ("5.1") is numbered automatically and keeps its number in its name.
/// - An entry with an `AudioCodec` and no `VideoCodec` is a radio channel.
/// - `DRM: 1` channels are left out (copy-protected: the tuner will not stream them), said once each.
/// - Each entry needs an http(s) `URL` with a host; a bad entry is skipped with its reason
///   and its place in the list (entry 3), and the good ones load.
/// - `TunerCount` (1…64) bounds the streams Zapper holds open to the device (`Lineup.tunerLimits`,
///   by the host of its channels' URLs): warm neighbours never take the tuner a tune needs.
/// - At most `LineupLimits.channels` entries; names bounded as an M3U's are.
public enum HDHomeRunLineup {
    /// The device, as `discover.json` describes it.
    public struct Device: Sendable, Equatable {
        public var name: String?
        public var tuners: Int?
        /// Where its lineup is: the discover document's `LineupURL`.
        public var lineupURL: URL?
    }

    public static let tunerRange = 1...64

    /// Whether `text` is JSON rather than an M3U: its first character that is no space or
    /// byte order mark opens an array or an object.
    public static func looksLikeJSON(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first(where: { !$0.properties.isWhitespace && $0 != "\u{FEFF}" }) else { return false }
        return first == "[" || first == "{"
    }

    /// The device a discover document describes; nil when `text` is not one (no JSON object).
    public static func device(_ text: String) -> Device? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else { return nil }
        return device(object)
    }

    private static func device(_ object: [String: Any]) -> Device {
        let tuners = (object["TunerCount"] as? NSNumber).map { $0.intValue }.flatMap { tunerRange.contains($0) ? $0 : nil }
        let lineup = (object["LineupURL"] as? String).flatMap { try? MediaURLPolicy.check($0).get() }
        return Device(name: object["FriendlyName"] as? String, tuners: tuners, lineupURL: lineup)
    }

    /// A discover document with its lineup under `Lineup`, as the fetch keeps them.
    public static func combined(discover: String, lineup: String) -> String? {
        guard var object = try? JSONSerialization.jsonObject(with: Data(discover.utf8)) as? [String: Any],
              let entries = try? JSONSerialization.jsonObject(with: Data(lineup.utf8)) as? [Any] else { return nil }
        object["Lineup"] = entries
        return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])).map { String(decoding: $0, as: UTF8.self) }
    }

    public static func parse(_ text: String, source: String, mergeDuplicates: Bool = true) -> Lineup {
        var problems: [InputProblem] = []
        func problem(_ entry: Int, _ message: String) {
            guard problems.count < LineupLimits.problems else { return }
            problems.append(InputProblem(source: source, line: entry, message: message))
        }
        let document: Any
        do {
            document = try JSONSerialization.jsonObject(with: Data(text.utf8))
        } catch {
            problem(0, "not JSON an HDHomeRun's lineup is written in (\(error.localizedDescription)); no channels")
            return Lineup(channels: [], problems: problems)
        }
        var device: Device?
        let list: [Any]
        if let entries = document as? [Any] {
            list = entries
        } else if let object = document as? [String: Any] {
            device = Self.device(object)
            guard let entries = object["Lineup"] as? [Any] else {
                let where_ = device?.lineupURL.map { "; its lineup is at \($0.absoluteString)" } ?? ""
                problem(0, "an HDHomeRun's discover.json with no lineup in it\(where_)")
                return Lineup(channels: [], problems: problems)
            }
            list = entries
        } else {
            problem(0, "neither an HDHomeRun lineup (a list) nor its discover.json (an object); no channels")
            return Lineup(channels: [], problems: problems)
        }
        var entries: [M3UPlusParser.Entry] = []
        for (index, item) in list.enumerated() {
            let number = index + 1
            guard entries.count < LineupLimits.channels else {
                problem(number, "more than \(LineupLimits.channels) channels; the rest of the lineup is skipped")
                break
            }
            switch entry(item, number: number) {
            case .success(let entry): entries.append(entry)
            case .failure(let reason): problem(number, reason.description)
            }
        }
        let channels = M3UPlusParser.assemble(entries, mergeDuplicates: mergeDuplicates, problem: problem)
        var limits: [String: Int] = [:]
        if let tuners = device?.tuners {
            for host in Set(channels.flatMap { $0.sources.compactMap { $0.url.host?.lowercased() } }) { limits[host] = tuners }
        }
        return Lineup(channels: channels, problems: problems.sorted { $0.line < $1.line }, tunerLimits: limits)
    }

    struct Skip: Error, CustomStringConvertible {
        var description: String
    }

    /// One `lineup.json` entry as the M3U parser's entries are, or why it is skipped.
    static func entry(_ item: Any, number: Int) -> Result<M3UPlusParser.Entry, Skip> {
        guard let fields = item as? [String: Any] else { return .failure(Skip(description: "entry \(number) is not an object; skipped")) }
        let guideNumber = (fields["GuideNumber"] as? String ?? (fields["GuideNumber"] as? NSNumber)?.stringValue)?.trimmedSpaces ?? ""
        let guideName = (fields["GuideName"] as? String)?.trimmedSpaces ?? ""
        let label = guideNumber.isEmpty ? "entry \(number)" : "GuideNumber \(guideNumber)"
        if (fields["DRM"] as? NSNumber)?.intValue == 1 {
            return .failure(Skip(description: "\(label) \"\(guideName)\" is copy-protected (DRM); skipped"))
        }
        guard let text = fields["URL"] as? String else { return .failure(Skip(description: "\(label) has no URL; skipped")) }
        let url: URL
        switch MediaURLPolicy.check(text) {
        case .success(let checked): url = checked
        case .failure(let rejection): return .failure(Skip(description: "\(label): stream URL \(rejection); skipped"))
        }
        var attributes: [String: String] = [:]
        let whole = Int(guideNumber).flatMap { $0 > 0 ? $0 : nil }
        if let whole { attributes["tvg-chno"] = String(whole) }
        // A virtual channel (5.1) keeps its number where the viewer sees it: in its name.
        let title = whole == nil && !guideNumber.isEmpty ? "\(guideNumber) \(guideName)" : guideName
        attributes["tvg-name"] = guideName
        if (fields["HD"] as? NSNumber)?.intValue == 1 { attributes["hd"] = "1" }
        for key in ["VideoCodec", "AudioCodec"] {
            if let value = fields[key] as? String { attributes[key.lowercased()] = value }
        }
        // An entry with a sound codec and no video codec is a radio service.
        if fields["VideoCodec"] == nil, fields["AudioCodec"] != nil { attributes["radio"] = "true" }
        let pending = M3UPlusParser.Pending(line: number, attributes: attributes, title: title, group: nil)
        return .success((pending, url, RequestHeaders()))
    }
}
