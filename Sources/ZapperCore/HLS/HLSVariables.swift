import Foundation

/// A playlist's EXT-X-DEFINE variables (RFC 8216bis §4.4.2.3) and their
/// substitution (§4.3): every `{$name}` in a URI line, a quoted-string or a
/// hexadecimal-sequence attribute value is replaced by the value of `name`,
/// defined before it. A value is never substituted again, so substitution
/// cannot recurse; its count, the values and what a line grows to are bounded
/// (`HLSLimits`).
public struct HLSVariables: Sendable, Equatable {
    public private(set) var values: [String: String] = [:]

    public init() {}

    public var isEmpty: Bool { values.isEmpty }
    public subscript(name: String) -> String? { values[name] }

    /// Where a variable's value comes from: the playlist's own NAME and VALUE,
    /// the master playlist's variable (IMPORT), or the playlist URL's query (QUERYPARAM).
    enum Source { case value, imported, query }

    /// Defines the variable an EXT-X-DEFINE tag names.
    /// - Parameters:
    ///   - url: the playlist's URL, the one that finally answered (QUERYPARAM reads its query).
    ///   - imports: the variables of the master playlist this one was loaded from; nil: none.
    /// - Returns: how it was defined.
    @discardableResult
    mutating func define(_ attributes: HLSAttributeList, url: URL, imports: HLSVariables?) throws(AttributeError) -> Source {
        let given = ["NAME", "IMPORT", "QUERYPARAM"].filter { attributes[$0] != nil }
        guard given.count == 1, let kind = given.first, let name = attributes[kind] else {
            throw AttributeError("EXT-X-DEFINE must have one of NAME, IMPORT and QUERYPARAM (it has \(given.isEmpty ? "none" : given.joined(separator: " and ")))")
        }
        guard Self.isName(name.utf8) else {
            throw AttributeError("EXT-X-DEFINE \(kind)=\"\(Self.shortened(name))\" is not a variable name (letters, digits, - and _)")
        }
        guard values[name] == nil else { throw AttributeError("EXT-X-DEFINE: the variable \(name) is defined twice") }
        guard values.count < HLSLimits.definitions else { throw AttributeError("more than \(HLSLimits.definitions) EXT-X-DEFINE variables") }
        let value: String
        let source: Source
        switch kind {
        case "NAME":
            guard let given = attributes["VALUE"] else { throw AttributeError("EXT-X-DEFINE NAME=\"\(name)\" has no VALUE") }
            (value, source) = (given, .value)
        case "IMPORT":
            guard let imports else {
                throw AttributeError("EXT-X-DEFINE IMPORT=\"\(name)\" in a playlist not loaded from a master playlist")
            }
            guard let imported = imports[name] else {
                throw AttributeError("EXT-X-DEFINE IMPORT=\"\(name)\": the master playlist defines no variable \(name)")
            }
            (value, source) = (imported, .imported)
        default:
            guard let parameter = Self.queryParameter(name, of: url) else {
                throw AttributeError("EXT-X-DEFINE QUERYPARAM=\"\(name)\": the playlist URL has no query parameter \(name) with a value")
            }
            guard !parameter.contains(where: { $0 == "\"" || $0 == "\n" || $0 == "\r" }) else {
                throw AttributeError("EXT-X-DEFINE QUERYPARAM=\"\(name)\": its value holds a quote or a line break")
            }
            (value, source) = (parameter, .query)
        }
        guard value.utf8.count <= HLSLimits.definitionValue else {
            throw AttributeError("EXT-X-DEFINE \(name): its value is longer than \(HLSLimits.definitionValue) bytes")
        }
        values[name] = value
        return source
    }

    /// The first value of query parameter `name` in `url`, percent-decoded.
    static func queryParameter(_ name: String, of url: URL) -> String? {
        guard let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems else { return nil }
        return items.first { $0.name == name && $0.value?.isEmpty == false }?.value
    }

    /// `text` with its variable references replaced. A `{$` that does not open a
    /// reference (`{$` NAME `}`) stays as it is.
    /// - Parameter budget: the bytes the line may still grow to; a reference
    ///   whose value does not fit fails.
    func substitute(_ text: Substring, budget: inout Int) throws(AttributeError) -> String {
        let bytes = text.utf8
        guard Self.firstReference(in: bytes) != nil else { return String(text) }
        var out: [UInt8] = []
        out.reserveCapacity(min(bytes.count, HLSLimits.substitutedLine))
        var index = bytes.startIndex
        while index != bytes.endIndex {
            if let (name, end) = Self.reference(at: index, in: bytes) {
                guard let value = values[name] else {
                    throw AttributeError("{$\(Self.shortened(name))} refers to no variable defined by an EXT-X-DEFINE before it")
                }
                try Self.spend(value.utf8.count, of: &budget)
                out.append(contentsOf: value.utf8)
                index = end
            } else {
                try Self.spend(1, of: &budget)
                out.append(bytes[index])
                index = bytes.index(after: index)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func spend(_ count: Int, of budget: inout Int) throws(AttributeError) {
        let (left, overflow) = budget.subtractingReportingOverflow(count)
        guard !overflow, left >= 0 else {
            throw AttributeError("variable substitution makes the line longer than \(HLSLimits.substitutedLine) bytes")
        }
        budget = left
    }

    /// The reference `{$NAME}` starting at `start`: its name and the index after its `}`.
    private static func reference(at start: Substring.UTF8View.Index, in bytes: Substring.UTF8View)
        -> (name: String, end: Substring.UTF8View.Index)? {
        guard bytes[start] == UInt8(ascii: "{") else { return nil }
        var index = bytes.index(after: start)
        guard index != bytes.endIndex, bytes[index] == UInt8(ascii: "$") else { return nil }
        index = bytes.index(after: index)
        let nameStart = index
        while index != bytes.endIndex, isNameByte(bytes[index]) { index = bytes.index(after: index) }
        guard index != nameStart, index != bytes.endIndex, bytes[index] == UInt8(ascii: "}") else { return nil }
        return (String(decoding: bytes[nameStart..<index], as: UTF8.self), bytes.index(after: index))
    }

    private static func firstReference(in bytes: Substring.UTF8View) -> Substring.UTF8View.Index? {
        var index = bytes.startIndex
        while index != bytes.endIndex {
            if reference(at: index, in: bytes) != nil { return index }
            index = bytes.index(after: index)
        }
        return nil
    }

    static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"): true
        default: false
        }
    }

    static func isName<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        !bytes.isEmpty && bytes.allSatisfy(isNameByte)
    }

    /// A name for a message: a hostile one may be megabytes long.
    static func shortened(_ text: String) -> String {
        text.count > 64 ? String(text.prefix(64)) + "…" : text
    }
}

extension HLSAttributeList {
    /// Substitutes `variables` in the quoted-string and hexadecimal-sequence
    /// values; all of them together may grow to `HLSLimits.substitutedLine` bytes.
    mutating func substitute(_ variables: HLSVariables) throws(AttributeError) {
        var budget = HLSLimits.substitutedLine
        for (name, value) in values where quoted.contains(name) || value.hasPrefix("0x") || value.hasPrefix("0X") {
            let substituted = try variables.substitute(Substring(value), budget: &budget)
            if substituted != value { replace(name, with: substituted) }
        }
    }
}
