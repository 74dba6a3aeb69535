import Foundation

/// The demo lineup (M3U Plus) and programme guide (XMLTV), written for the
/// address the client used to reach the origin.
public struct GuideWriter: Sendable {
    public let catalog: ChannelCatalog
    /// Programmes are half an hour long, on the hour and half hour.
    public static let slotSeconds = 1800

    public init(catalog: ChannelCatalog) {
        self.catalog = catalog
    }

    public func lineup(baseURL: String) -> String {
        var lines = ["#EXTM3U url-tvg=\"\(baseURL)/guide.xml\""]
        for channel in catalog.channels {
            lines.append("#EXTINF:-1 tvg-id=\"\(channel.id)\" tvg-chno=\"\(channel.number)\" tvg-name=\"\(channel.name)\" "
                + "tvg-logo=\"\(baseURL)/logos/\(channel.number).png\" group-title=\"\(channel.group)\",\(channel.name)")
            lines.append("\(baseURL)/ch/\(channel.number)/master.m3u8")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    struct Programme: Equatable {
        var title: String
        var subTitle: String
        var description: String
        var rating: String
    }

    /// The programme of a channel in a slot: the same every time it is asked.
    func programme(channel: DemoChannel, slot: Int) -> Programme {
        let shows: [(String, String, String)] = switch channel.group {
        case "News": [("World Report", "TV-G", "Headlines from around the world, on the hour."),
                      ("Business Today", "TV-G", "Markets, money and the people who move them."),
                      ("Weather Watch", "TV-G", "The forecast for the next five days.")]
        case "Sport": [("Match of the Day", "TV-PG", "Highlights of today's games."),
                       ("Live: Cup Final", "TV-PG", "The final, live from the stadium."),
                       ("Training Ground", "TV-G", "Inside the clubs' preparation.")]
        case "Movies": [("The Long Night", "TV-MA", "A thriller set over one winter night."),
                        ("Harbour Lights", "TV-14", "A drama of a fishing town."),
                        ("Laugh Track", "TV-PG", "A comedy of errors.")]
        default: [("Test Card", "TV-Y", "Flashes and beeps for picture and sound timing."),
                  ("Colour Bars", "TV-Y", "Colour bars and tone.")]
        }
        let index = ((slot + channel.number) % shows.count + shows.count) % shows.count
        let show = shows[index]
        return Programme(title: show.0, subTitle: "Episode \((slot % 97 + 97) % 97 + 1)",
                         description: "\(show.2) On \(channel.name).", rating: show.1)
    }

    /// XMLTV with two hours of past and six hours of coming programmes.
    public func xmltv(baseURL: String, now: Double) -> String {
        let currentSlot = Int((now / Double(Self.slotSeconds)).rounded(.down))
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE tv SYSTEM "xmltv.dtd">
            <tv generator-info-name="zapper-origin">

            """
        for channel in catalog.channels {
            xml += "  <channel id=\"\(escape(channel.id))\">\n"
            xml += "    <display-name>\(escape(channel.name))</display-name>\n"
            xml += "    <display-name>\(channel.number)</display-name>\n"
            xml += "    <icon src=\"\(escape(baseURL))/logos/\(channel.number).png\"/>\n"
            xml += "  </channel>\n"
        }
        for channel in catalog.channels {
            for slot in (currentSlot - 4)...(currentSlot + 12) {
                let programme = programme(channel: channel, slot: slot)
                let start = Self.xmltvTime(Double(slot * Self.slotSeconds))
                let stop = Self.xmltvTime(Double((slot + 1) * Self.slotSeconds))
                xml += "  <programme start=\"\(start)\" stop=\"\(stop)\" channel=\"\(escape(channel.id))\">\n"
                xml += "    <title lang=\"en\">\(escape(programme.title))</title>\n"
                xml += "    <sub-title lang=\"en\">\(escape(programme.subTitle))</sub-title>\n"
                xml += "    <desc lang=\"en\">\(escape(programme.description))</desc>\n"
                xml += "    <rating system=\"VCHIP\"><value>\(programme.rating)</value></rating>\n"
                xml += "  </programme>\n"
            }
        }
        return xml + "</tv>\n"
    }

    /// XMLTV's `YYYYMMDDhhmmss +0000`.
    static func xmltvTime(_ seconds: Double) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        return String(format: "%04d%02d%02d%02d%02d%02d +0000", parts.tm_year + 1900, parts.tm_mon + 1,
                      parts.tm_mday, parts.tm_hour, parts.tm_min, parts.tm_sec)
    }

    func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
