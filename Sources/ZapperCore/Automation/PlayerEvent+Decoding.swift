import Foundation

/// One line of the event log read back: when (`t_ms`) and which `PlayerEvent`, typed, for the
/// tests, `zapper-bench` and the image's checks (no event is read as a dictionary).
///
/// The log keeps what `PlayerEvent.fields` writes, so a line reads back as an event whose
/// `fields` are the same. What the log never held comes back empty: a tune's channel name (it
/// is stderr's), whether a subtitle failure was also said on stderr, and the payload of a
/// failure beyond its name and detail (an unsupported form, a tuner count, a channel number):
/// read a failure's `name` and `detail`.
public struct LoggedEvent: Sendable, Equatable {
    public var milliseconds: Int
    public var event: PlayerEvent

    public init(milliseconds: Int, event: PlayerEvent) {
        self.milliseconds = milliseconds
        self.event = event
    }

    /// Reads `{"t_ms": …, "event": NAME, …}`; a line that is not one, names an event zapper does
    /// not write or lacks one of its fields fails with the reason.
    public init(jsonLine line: some StringProtocol) throws(EventLineError) {
        let object: [String: EventValue]
        do {
            object = try JSONDecoder().decode([String: EventValue].self, from: Data(line.utf8))
        } catch {
            throw EventLineError(line: String(line), reason: "not a JSON object of numbers, strings and booleans")
        }
        guard case .int(let milliseconds)? = object["t_ms"] else { throw EventLineError(line: String(line), reason: "no t_ms") }
        guard case .string(let word)? = object["event"], let name = EventName(rawValue: word) else {
            throw EventLineError(line: String(line), reason: "no event zapper writes")
        }
        var fields = object
        fields["t_ms"] = nil
        fields["event"] = nil
        do throws(PlayerEvent.FieldError) {
            self.init(milliseconds: milliseconds, event: try PlayerEvent(name, fields: PlayerEvent.Fields(values: fields)))
        } catch {
            throw EventLineError(line: String(line), reason: "\(word): \(error.reason)")
        }
    }
}

/// An event log line that does not read back as an event, and why.
public struct EventLineError: Error, Sendable, Equatable, CustomStringConvertible {
    public var line: String
    public var reason: String
    public var description: String { "event log line \(line.prefix(200)): \(reason)" }
}

extension EventValue: Decodable {
    public init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer()
        if let bool = try? value.decode(Bool.self) {
            self = .bool(bool)
        } else if let int = try? value.decode(Int.self) {
            self = .int(int)
        } else {
            self = .string(try value.decode(String.self))
        }
    }
}

extension PlayerEvent {
    /// A field missing or of another type.
    struct FieldError: Error {
        var reason: String
    }

    /// An event's fields by name, each read as the type `fields` writes it.
    struct Fields {
        var values: [String: EventValue]

        func int(_ key: String) throws(FieldError) -> Int {
            guard case .int(let value)? = values[key] else { throw FieldError(reason: "no number \(key)") }
            return value
        }

        func string(_ key: String) throws(FieldError) -> String {
            guard case .string(let value)? = values[key] else { throw FieldError(reason: "no text \(key)") }
            return value
        }

        func bool(_ key: String) throws(FieldError) -> Bool {
            guard case .bool(let value)? = values[key] else { throw FieldError(reason: "no true or false \(key)") }
            return value
        }

        func optionalInt(_ key: String) throws(FieldError) -> Int? { values[key] == nil ? nil : try int(key) }

        func choice<T: RawRepresentable>(_ key: String, as type: T.Type) throws(FieldError) -> T where T.RawValue == String {
            let word = try string(key)
            guard let value = T(rawValue: word) else { throw FieldError(reason: "\(key) \"\(word)\" is none of its words") }
            return value
        }

        /// A failure as the log keeps it: its name (`kind`) and its detail (`detailKey`).
        func failure(detailKey: String) throws(FieldError) -> PlaybackFailure {
            let name = try string("kind")
            guard let kind = PlaybackFailure.Kind(loggedName: name) else { throw FieldError(reason: "no failure is named \(name)") }
            return PlaybackFailure(kind, try string(detailKey))
        }
    }
}

extension PlaybackFailure.Kind {
    /// The kind a failure's `name` says; a payload the name does not carry is left empty (0, `.notAStream`).
    init?(loggedName name: String) {
        if name.hasPrefix("http-") {
            guard let status = Int(name.dropFirst(5)) else { return nil }
            self = .http(status: status)
            return
        }
        if name.hasPrefix("certificate-") {
            guard let problem = CertificateProblem(rawValue: String(name.dropFirst(12))) else { return nil }
            self = .certificate(problem)
            return
        }
        let kinds: [Self] = [.unreachable, .timeout, .stalled, .frozen, .frozenPicture, .blackPicture, .truncated, .tooLarge,
                             .invalid, .unsupported(.notAStream), .decode, .noPicture, .noSound, .tunersBusy(0), .refused,
                             .noSuchChannel(0), .other]
        guard let kind = kinds.first(where: { PlaybackFailure($0, "").name == name }) else { return nil }
        self = kind
    }
}
