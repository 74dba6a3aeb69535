import Foundation

/// One line of an automation script (`--script FILE`; Sources/zapper/README.md, "Scripts").
public enum ScriptCommand: Sendable, Equatable {
    case press(key: String)
    case hold(key: String, milliseconds: Int)
    case wait(milliseconds: Int)
    /// The next such event emitted after the line starts; on timeout the script fails.
    case waitEvent(name: EventName, timeoutMilliseconds: Int)
    case snapshot(path: String)
    case quit
}

public struct ScriptLine: Sendable, Equatable {
    public var line: Int
    public var command: ScriptCommand
}

public enum ScriptParser {
    public static let defaultEventTimeout = 30_000
    static let usage = ["press": "press KEY_NAME", "hold": "hold KEY_NAME MS", "wait": "wait MS",
                        "wait-event": "wait-event NAME [TIMEOUT_MS]", "snapshot": "snapshot PATH.png", "quit": "quit"]

    /// Every line, or the first bad one as `FILE:LINE: reason`. Blank lines and `#` comments are skipped.
    /// `canonical` names keys as `Keymap.parse` does (the player passes libevdev's names).
    public static func parse(_ text: String, source: String,
                             canonical: (String) -> String? = { $0 }) throws(InputProblem) -> [ScriptLine] {
        var lines: [ScriptLine] = []
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let words = raw.split(whereSeparator: \.isWhitespace).map(String.init)
            guard let verb = words.first, !verb.hasPrefix("#") else { continue }
            func fail(_ reason: String) -> InputProblem { InputProblem(source: source, line: index + 1, message: reason) }
            func milliseconds(_ word: String?) throws(InputProblem) -> Int {
                guard let word, let value = Int(word), value >= 0 else { throw fail("\(verb) needs a duration in milliseconds") }
                return value
            }
            func key(_ word: String) throws(InputProblem) -> String {
                guard Keymap.isKeyName(word) else { throw fail("\"\(word)\" is not a key name (KEY_*, BTN_*, SWIPE_UP or SWIPE_DOWN)") }
                if word.hasPrefix("SWIPE_") { return word }
                guard let name = canonical(word) else { throw fail("the kernel has no key named \(word)") }
                return name
            }
            func event(_ word: String) throws(InputProblem) -> EventName {
                guard let name = EventName(rawValue: word) else { throw fail("\"\(word)\" is not an event zapper logs (see --events)") }
                return name
            }
            let command: ScriptCommand
            switch (verb, words.count) {
            case ("press", 2): command = .press(key: try key(words[1]))
            case ("hold", 3): command = .hold(key: try key(words[1]), milliseconds: try milliseconds(words[2]))
            case ("wait", 2): command = .wait(milliseconds: try milliseconds(words[1]))
            case ("wait-event", 2): command = .waitEvent(name: try event(words[1]), timeoutMilliseconds: defaultEventTimeout)
            case ("wait-event", 3): command = .waitEvent(name: try event(words[1]), timeoutMilliseconds: try milliseconds(words[2]))
            case ("snapshot", 2):
                guard words[1].lowercased().hasSuffix(".png") else { throw fail("snapshot takes a PATH.png") }
                command = .snapshot(path: words[1])
            case ("quit", 1): command = .quit
            case let (known, _) where usage[known] != nil:
                throw fail("usage: \(usage[known]!)")
            default:
                throw fail("unknown command \"\(verb)\" (press, hold, wait, wait-event, snapshot, quit)")
            }
            lines.append(ScriptLine(line: index + 1, command: command))
        }
        return lines
    }
}

/// A value in an event's fields.
public enum EventValue: Sendable, Equatable {
    case int(Int)
    case string(String)
    case bool(Bool)

    var json: String {
        switch self {
        case .int(let value): "\(value)"
        case .bool(let value): value ? "true" : "false"
        case .string(let value): EventValue.quote(value)
        }
    }

    static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let s where s.value < 0x20: out += String(format: "\\u%04x", s.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

public struct Event: Sendable, Equatable {
    public var milliseconds: Int
    public var name: String
    public var fields: [(String, EventValue)]

    public init(milliseconds: Int, name: String, fields: [(String, EventValue)]) {
        self.milliseconds = milliseconds
        self.name = name
        self.fields = fields
    }

    /// `{"t_ms": …, "event": NAME, …}` on one line.
    public var jsonLine: String {
        var parts = ["\"t_ms\": \(milliseconds)", "\"event\": \(EventValue.quote(name))"]
        parts += fields.map { "\(EventValue.quote($0.0)): \($0.1.json)" }
        return "{" + parts.joined(separator: ", ") + "}"
    }

    public static func == (a: Event, b: Event) -> Bool {
        a.milliseconds == b.milliseconds && a.name == b.name && a.fields.map(\.0) == b.fields.map(\.0)
            && a.fields.map(\.1) == b.fields.map(\.1)
    }
}
