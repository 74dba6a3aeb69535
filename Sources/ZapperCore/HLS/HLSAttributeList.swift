/// An RFC 8216 §4.2 attribute list: `NAME=VALUE` pairs separated by commas,
/// where a quoted-string value may itself hold commas.
struct HLSAttributeList {
    private(set) var values: [String: String] = [:]
    /// Names whose value was a quoted-string.
    private(set) var quoted: Set<String> = []

    init(_ text: Substring) throws(AttributeError) {
        var rest = text[...]
        while !rest.isEmpty {
            guard let equals = rest.firstIndex(of: "=") else {
                throw AttributeError("\"\(rest)\" is not NAME=VALUE")
            }
            let name = rest[..<equals].trimmingSpaces
            guard !name.isEmpty, name.allSatisfy({ $0.isUppercase || $0.isNumber || $0 == "-" }) else {
                throw AttributeError("\"\(name)\" is not an attribute name")
            }
            rest = rest[rest.index(after: equals)...]
            let value: Substring
            if rest.first == "\"" {
                let body = rest.dropFirst()
                guard let close = body.firstIndex(of: "\"") else {
                    throw AttributeError("the value of \(name) has no closing quote")
                }
                value = body[..<close]
                quoted.insert(String(name))
                rest = body[body.index(after: close)...]
                if !rest.isEmpty, rest.first != "," {
                    throw AttributeError("text after the quoted value of \(name)")
                }
            } else {
                let end = rest.firstIndex(of: ",") ?? rest.endIndex
                value = rest[..<end].trimmingSpaces
                rest = rest[end...]
            }
            values[String(name)] = String(value)
            if rest.first == "," { rest = rest.dropFirst() }
        }
    }

    subscript(name: String) -> String? { values[name] }

    /// Replaces a value (after variable substitution, `HLSVariables`).
    mutating func replace(_ name: String, with value: String) { values[name] = value }

    func integer(_ name: String, upTo limit: Int = Int.max) throws(AttributeError) -> Int? {
        guard let text = values[name] else { return nil }
        guard let value = Int(text), value >= 0, value <= limit else {
            throw AttributeError("\(name)=\(text) is not a decimal integer from 0 to \(limit)")
        }
        return value
    }

    /// A finite number; within `range` when one is given.
    func float(_ name: String, in range: ClosedRange<Double>? = nil) throws(AttributeError) -> Double? {
        guard let text = values[name] else { return nil }
        guard let value = Double(text), value.isFinite, range?.contains(value) ?? true else {
            throw AttributeError("\(name)=\(text) is not a number" + (range.map { " from \($0.lowerBound) to \($0.upperBound)" } ?? ""))
        }
        return value
    }

    func yesNo(_ name: String) throws(AttributeError) -> Bool {
        switch values[name] {
        case nil, "NO": false
        case "YES": true
        case let other?: throw AttributeError("\(name)=\(other) is not YES or NO")
        }
    }

    func required(_ name: String, in tag: String) throws(AttributeError) -> String {
        guard let value = values[name], !value.isEmpty else { throw AttributeError("\(tag) has no \(name)") }
        return value
    }
}

struct AttributeError: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}
