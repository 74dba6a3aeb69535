/// What TOMLKit's parser (toml++) must not see: shapes that trip an assertion
/// inside toml++ (undefined behaviour when assertions are compiled out) instead
/// of a parse error, each found by `make fuzz`:
/// - a table header whose name starts with neither a bare-key character nor a
///   quote (`[;x]`, `[&`, `[[[a]]]`, `[[` and nothing more on its line);
/// - a `}` inside an array (`a = [}`, `a = [1, }`): no valid TOML closes an array with it;
/// - a date then a space and one lone digit (`2024-01-01 7`, `0pin-nh-2= 8#`): toml++ reads
///   on for a time past the value's end; no valid TOML has it (a time needs HH:MM).
/// - a control character other than tab, LF and CR anywhere (`0pin-nh-2= 8` then U+000B):
///   TOML allows none, not even in strings or comments, and toml++ read on past such a
///   value's end into an assertion.
/// The text is read once, stepping over strings and comments as toml++ does, and
/// the first such shape is reported as the parse error it is, with its line.
enum TOMLPrecheck {
    /// The 1-based line and message of the first shape toml++ would assert on, if any.
    static func firstProblem(in text: String) -> (line: Int, message: String)? {
        let scalars = Array(text.unicodeScalars)
        if let problem = controlCharacter(in: scalars) { return problem }
        var scan = Scan(scalars)
        return scan.run()
    }

    /// The first control character TOML does not allow (all but tab, LF and CR), with its line.
    static func controlCharacter(in scalars: [Unicode.Scalar]) -> (line: Int, message: String)? {
        var line = 1
        for scalar in scalars {
            if scalar == "\n" {
                line += 1
            } else if (scalar.value < 0x20 && scalar != "\t" && scalar != "\r") || scalar.value == 0x7F {
                return (line, "control character \(codePoint(scalar)) is not allowed in TOML")
            }
        }
        return nil
    }

    /// The spaces and line breaks beyond ASCII that toml++ ends a bare value at (and, after a
    /// date-like one, asserts on: `make fuzz` found U+FEFF and then all of these doing it). TOML
    /// allows them only inside strings and comments (a byte order mark also at the very start).
    static func isUnicodeSpace(_ scalar: Unicode.Scalar) -> Bool {
        guard !scalar.isASCII else { return false }
        return scalar.properties.isWhitespace || [0x180E, 0x200B, 0x2060, 0xFEFF].contains(scalar.value)
    }

    /// "U+000B", "U+FEFF": a scalar as Unicode writes it, at least four hex digits.
    static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let code = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - code.count)) + code
    }

    static func isKeyStart(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.isASCII else { return false }
        return ("0"..."9").contains(scalar) || ("A"..."Z").contains(scalar) || ("a"..."z").contains(scalar)
            || scalar == "_" || scalar == "-" || scalar == "\"" || scalar == "'"
    }

    private struct Scan {
        let scalars: [Unicode.Scalar]
        var index = 0
        var line = 1
        /// The value brackets open: `[` of arrays, `{` of inline tables (not table headers).
        var open: [Unicode.Scalar] = []
        /// Nothing but spaces and tabs (and, at the very start, a byte order mark) read on this line yet.
        var lineStart = true

        init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

        mutating func run() -> (line: Int, message: String)? {
            while index < scalars.count {
                let scalar = scalars[index]
                switch scalar {
                case "\"", "'":
                    skipString()
                    lineStart = false
                    continue
                case "#":
                    skipToLineEnd()
                    continue
                case "\n":
                    line += 1
                    lineStart = true
                    index += 1
                    continue
                case " ", "\t":
                    index += 1
                    continue
                case "\u{FEFF}" where index == 0:
                    index += 1
                    continue
                case _ where TOMLPrecheck.isUnicodeSpace(scalar):
                    return (line, "\(TOMLPrecheck.codePoint(scalar)) (a Unicode space) is allowed in TOML only inside strings and comments")
                case "[" where lineStart && open.isEmpty:
                    if let problem = header() { return problem }
                    continue
                case "[", "{":
                    open.append(scalar)
                case "]":
                    if open.last == "[" { open.removeLast() }
                case "}":
                    if open.last == "[" { return (line, "a } where an array's value or its ] was expected") }
                    if open.last == "{" { open.removeLast() }
                default:
                    if loneDigitAfterDate() { return (line, "not a TOML value: a date and a space need a time (HH:MM) after them") }
                }
                lineStart = false
                index += 1
            }
            return nil
        }

        /// Whether a bare value starts at `index` with ten characters shaped `dddd-dd-dd`, a
        /// space, a digit and then its end: toml++ takes it for a date-time and asserts.
        private func loneDigitAfterDate() -> Bool {
            let first = scalars[index]
            guard ("0"..."9").contains(first) || first == "+" || first == "-",
                  index == 0 || Self.ends(scalars[index - 1]) || scalars[index - 1] == "=" || scalars[index - 1] == "[",
                  index + 12 <= scalars.count else { return false }
            let token = scalars[index..<index + 10]
            return !token.contains(where: Self.ends) && scalars[index + 4] == "-" && scalars[index + 7] == "-"
                && scalars[index + 10] == " " && ("0"..."9").contains(scalars[index + 11])
                && (index + 12 == scalars.count || Self.ends(scalars[index + 12]))
        }

        /// Where a bare value ends (toml++'s value terminators).
        static func ends(_ scalar: Unicode.Scalar) -> Bool {
            [" ", "\t", "\n", "\r", "#", ",", "]", "}"].contains(scalar)
        }

        /// A table header at `index`: its name must start with a key character or a quote.
        /// Moves to its line's end (a header holds no value).
        private mutating func header() -> (line: Int, message: String)? {
            index += starts("[[", at: index) ? 2 : 1
            while index < scalars.count, scalars[index] == " " || scalars[index] == "\t" { index += 1 }
            guard index < scalars.count, TOMLPrecheck.isKeyStart(scalars[index]) else {
                return (line, "a table name must start with a letter, a digit, _, - or a quote")
            }
            // The name may be quoted: step over strings on the header's line.
            while index < scalars.count, scalars[index] != "\n" {
                if scalars[index] == "\"" || scalars[index] == "'" { skipString() } else if scalars[index] == "#" { skipToLineEnd() } else { index += 1 }
            }
            return nil
        }

        private func starts(_ delimiter: String, at position: Int) -> Bool {
            let wanted = Array(delimiter.unicodeScalars)
            return position + wanted.count <= scalars.count && Array(scalars[position..<position + wanted.count]) == wanted
        }

        /// Moves past the string opened at `index` (basic or literal, one-line or multi-line), counting its lines.
        private mutating func skipString() {
            let quote = String(scalars[index])
            let delimiter = starts(quote + quote + quote, at: index) ? quote + quote + quote : quote
            let length = delimiter.unicodeScalars.count
            index += length
            while index < scalars.count {
                if quote == "\"", scalars[index] == "\\" {
                    index += 2
                    continue
                }
                if starts(delimiter, at: index) {
                    index += length
                    return
                }
                if scalars[index] == "\n" {
                    if length == 1 { return }  // an unclosed one-line string: toml++ says so
                    line += 1
                }
                index += 1
            }
        }

        /// Moves to the end of the line: its newline is read next.
        private mutating func skipToLineEnd() {
            while index < scalars.count, scalars[index] != "\n" { index += 1 }
        }
    }
}
