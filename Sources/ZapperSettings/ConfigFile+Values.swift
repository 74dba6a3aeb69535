import Foundation
import TOMLKit

/// The reader's ways of taking values from the TOML tables: the expected type, unknown keys,
/// problems and notes with the line they are on (TOMLKit does not say where a value was).
extension ConfigFile.Reader {
    mutating func check(_ table: TOMLTable, section: String?, known: Set<String>) {
        for key in table.keys where !known.contains(key) {
            fail(key, section, "unknown key (known: \(known.sorted().joined(separator: ", ")))")
        }
    }

    mutating func subtable(_ table: TOMLTable, _ key: String) -> TOMLTable? {
        guard let value = table[key] else { return nil }
        guard let sub = value.table else {
            fail(key, nil, "expected a table [\(key)], found \(value.type)")
            return nil
        }
        return sub
    }

    mutating func string(_ table: TOMLTable, _ key: String, section: String?) -> String? {
        value(table, key, section: section, as: .string) { $0.string }
    }

    mutating func int(_ table: TOMLTable, _ key: String, section: String?) -> Int? {
        value(table, key, section: section, as: .int) { $0.int }
    }

    mutating func bool(_ table: TOMLTable, _ key: String, section: String?) -> Bool? {
        value(table, key, section: section, as: .bool) { $0.bool }
    }

    mutating func value<T>(_ table: TOMLTable, _ key: String, section: String?, as type: TOMLType,
                           _ convert: (any TOMLValueConvertible) -> T?) -> T? {
        guard let value = table[key] else { return nil }
        if let converted = convert(value) { return converted }
        fail(key, section, "expected \(type == .int ? "an" : "a") \(type), found \(value.type)")
        return nil
    }

    /// Says `message` at start, and plays on with what was read.
    mutating func note(_ key: String, _ section: String?, _ message: String) {
        notes.append(.init(line: line(of: key, in: section), key: section.map { "\($0).\(key)" } ?? key, message: message))
    }

    mutating func fail(_ key: String, _ section: String?, _ message: String) {
        problems.append(.init(line: line(of: key, in: section), key: section.map { "\($0).\(key)" } ?? key,
                              message: message))
    }

    /// TOMLKit does not say where a value was, so the key's line is found
    /// in the text: the first `key =` (bare or quoted) inside its section.
    func line(of key: String, in section: String?) -> Int? {
        var current: String?
        for (index, raw) in lines.enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("[") {
                current = line.trimmingCharacters(in: CharacterSet(charactersIn: "[] "))
                    .split(separator: "#").first.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "[] ")) }
                if section == nil, current == key { return index + 1 }
                continue
            }
            guard current == section else { continue }
            for spelling in [key, "\"\(key)\"", "'\(key)'"] where line.hasPrefix(spelling) {
                if line.dropFirst(spelling.count).trimmingCharacters(in: .whitespaces).hasPrefix("=") {
                    return index + 1
                }
            }
        }
        return nil
    }
}

/// Everything wrong with a configuration file, one problem per line:
/// `FILE:LINE: KEY: what is wrong`.
public struct ConfigFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public struct Problem: Sendable, Equatable, CustomStringConvertible {
        public var line: Int?
        /// `max-rating` in a section is `parental.max-rating`.
        public var key: String?
        public var message: String

        public var description: String { [key, message].compactMap { $0 }.joined(separator: ": ") }
    }

    public var file: String
    public var problems: [Problem]

    public var description: String {
        problems.map { problem in
            (problem.line.map { "\(file):\($0)" } ?? file) + ": \(problem)"
        }.joined(separator: "\n")
    }
}
