/// A closed-caption service carried in the video's own stream, as an HLS
/// master names it in INSTREAM-ID: CEA-608 "CC1"–"CC4", CEA-708 "SERVICE1"–"SERVICE63".
public enum CaptionChannel: Sendable, Hashable, CustomStringConvertible {
    /// CEA-608 data channel 1–4 (CC1 and CC2 in field 1, CC3 and CC4 in field 2).
    case cea608(Int)
    /// CEA-708 service 1–63.
    case cea708(service: Int)

    public init?(instreamID text: String) {
        let upper = text.uppercased()
        if upper.hasPrefix("CC"), upper.count == 3, let number = Int(upper.dropFirst(2)), (1...4).contains(number) {
            self = .cea608(number)
        } else if upper.hasPrefix("SERVICE"), (8...9).contains(upper.count), let number = Int(upper.dropFirst(7)),
                  (1...63).contains(number), !upper.dropFirst(7).hasPrefix("0") {
            self = .cea708(service: number)
        } else {
            return nil
        }
    }

    /// As INSTREAM-ID writes it ("CC1", "SERVICE1").
    public var instreamID: String {
        switch self {
        case .cea608(let number): "CC\(number)"
        case .cea708(let service): "SERVICE\(service)"
        }
    }

    public var description: String { instreamID }

    /// The 608 field its byte pairs travel in (0: field 1, 1: field 2); nil for 708.
    public var field608: Int? {
        guard case .cea608(let number) = self else { return nil }
        return number <= 2 ? 0 : 1
    }
}

/// A closed-caption track the panel offers: its service and how the master names it.
public struct CaptionTrack: Sendable, Equatable {
    public var channel: CaptionChannel
    public var name: String
    public var language: String?

    public init(channel: CaptionChannel, name: String, language: String? = nil) {
        self.channel = channel
        self.name = name
        self.language = language
    }
}
