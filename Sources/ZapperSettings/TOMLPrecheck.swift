import Foundation

/// Lines TOMLKit's parser (toml++) must not see: a table header whose name
/// starts with neither a bare-key character nor a quote (`[;x]`, `[&`,
/// `[[[a]]]`) trips an assertion inside toml++ (undefined behaviour when
/// assertions are compiled out) instead of a parse error. Such a header is
/// reported here, as the parse error it is, before TOMLKit reads the text.
enum TOMLPrecheck {
    /// The 1-based line and message of the first bad table header, if any.
    static func badHeader(in text: String) -> (line: Int, message: String)? {
        var inMultilineString: String?
        // By Unicode scalars, not Characters: "[" and a combining mark after it are one Character.
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            // toml++ skips a byte order mark at the start, and spaces and tabs before a header.
            let line = Substring.UnicodeScalarView(raw.unicodeScalars.drop { $0 == " " || $0 == "\t" || (index == 0 && $0 == "\u{FEFF}") })
            let characters = Substring(line)
            if let delimiter = inMultilineString {
                if occurrences(of: delimiter, in: characters) % 2 == 1 { inMultilineString = nil }
                continue
            }
            if line.first == "[" {
                let name = line.dropFirst(line.starts(with: "[[".unicodeScalars) ? 2 : 1).drop { $0 == " " || $0 == "\t" }
                guard let first = name.first, isKeyStart(first) else {
                    return (index + 1, "a table name must start with a letter, a digit, _, - or a quote")
                }
                continue
            }
            for delimiter in ["\"\"\"", "\'\'\'"] where occurrences(of: delimiter, in: characters) % 2 == 1 {
                inMultilineString = delimiter
                break
            }
        }
        return nil
    }

    static func isKeyStart(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.isASCII else { return false }
        return ("0"..."9").contains(scalar) || ("A"..."Z").contains(scalar) || ("a"..."z").contains(scalar)
            || scalar == "_" || scalar == "-" || scalar == "\"" || scalar == "'"
    }

    private static func occurrences(of delimiter: String, in line: Substring) -> Int {
        line.components(separatedBy: delimiter).count - 1
    }
}
