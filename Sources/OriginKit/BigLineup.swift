import Foundation

/// A lineup of thousands of entries written the way public lists are (iptv-org's
/// country lists): `tvg-id="Name.cc@SD"`, quality tags in names ("(720p)",
/// "[Not 24/7]"), `;`-separated groups, logos, `#EXTVLCOPT` and attribute
/// headers on some, and every fiftieth entry a second source of the one before
/// (merged into one channel). Each entry plays one of the origin's channels.
public enum BigLineup {
    /// The most entries served (`/shapes/big.m3u?count=N`).
    public static let maxCount = 100_000
    static let groups = ["News", "Entertainment", "Movies", "Sports", "Kids", "Music", "Documentary", "General",
                         "Religious", "Lifestyle", "Business", "Weather", "Culture", "Education", "Travel", "Series",
                         "Comedy", "Cooking", "Animation", "Outdoor"]
    static let countries = ["us", "uk", "de", "fr", "es", "it", "in", "br", "ca", "au"]

    /// Entries `count`, playing the origin's `channels` in turn; with `bigGuide` its guide is
    /// `guide(count:now:)`'s (`/shapes/big-guide.xml`), else the demo's.
    public static func text(count: Int, baseURL: String, channels: [Int], bigGuide: Bool = false) -> String {
        let guide = bigGuide ? "\(baseURL)/shapes/big-guide.xml?count=\(count)" : "\(baseURL)/guide.xml"
        var lines = ["#EXTM3U x-tvg-url=\"\(guide)\""]
        lines.reserveCapacity(count * 3 + 1)
        var name = ""
        var id = ""
        for index in 0..<max(0, min(count, maxCount)) {
            let channel = channels.isEmpty ? 1 : channels[index % channels.count]
            let quality = ["(720p)", "(1080p)", "(480p)", "(576p)", "(360p)"][index % 5]
            let duplicate = index % 50 == 49
            if !duplicate {
                let country = countries[index % countries.count]
                name = "Channel number \(index + 1) \(["One", "News", "Sport", "Kids", "Plus"][index % 5])"
                id = "Channel\(index + 1).\(country)@SD"
            }
            let tags = duplicate ? "(1080p)" : quality + (index % 9 == 0 ? " [Not 24/7]" : "") + (index % 17 == 0 ? " [Geo-blocked]" : "")
            let group = index % 4 == 0 ? "\(groups[index % groups.count]);\(groups[(index / 4) % groups.count])" : groups[index % groups.count]
            let agent = index % 13 == 0 ? " user-agent=\"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko)\"" : ""
            lines.append("#EXTINF:-1 tvg-id=\"\(id)\" tvg-logo=\"\(baseURL)/logos/\(channel).png\" group-title=\"\(group)\"\(agent),\(name) \(tags)")
            if index % 7 == 0 { lines.append("#EXTVLCOPT:http-user-agent=Mozilla/5.0 (SMART-TV; Linux; Tizen 6.0)") }
            if index % 11 == 0 { lines.append("#EXTVLCOPT:http-referrer=https://portal.example/") }
            lines.append("\(baseURL)/ch/\(channel)/master.m3u8?entry=\(index + 1)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// An XMLTV guide for the first `count` entries' ids: from an hour before `now` to five
    /// hours after it, programmes of half an hour to an hour and a half (varying by channel).
    public static func guide(count: Int, now: Double) -> String {
        let slot = 1800
        let first = Int((now / Double(slot)).rounded(.down)) - 2
        var lines = ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>", "<tv generator-info-name=\"zapper-origin big\">"]
        let entries = (0..<max(0, min(count, maxCount))).filter { $0 % 50 != 49 }
        lines.reserveCapacity(entries.count * 14)
        for index in entries {
            let id = "Channel\(index + 1).\(countries[index % countries.count])@SD"
            lines.append("<channel id=\"\(id)\"><display-name>Channel number \(index + 1)</display-name></channel>")
        }
        for index in entries {
            let id = "Channel\(index + 1).\(countries[index % countries.count])@SD"
            var at = first
            var number = 0
            while at < first + 12 {
                let length = 1 + (index + number) % 3
                number += 1
                let start = GuideWriter.xmltvTime(Double(at * slot)), stop = GuideWriter.xmltvTime(Double((at + length) * slot))
                lines.append("<programme start=\"\(start)\" stop=\"\(stop)\" channel=\"\(id)\"><title>Show \(number) of channel \(index + 1)</title></programme>")
                at += length
            }
        }
        lines.append("</tv>")
        return lines.joined(separator: "\n") + "\n"
    }
}
