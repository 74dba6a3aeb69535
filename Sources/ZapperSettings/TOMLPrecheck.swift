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
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            // toml++ skips a byte order mark at the start, and spaces and tabs before a header.
            let line = raw.drop { $0 == " " || $0 == "\t" || (index == 0 && $0 == "\u{FEFF}") }
            if let delimiter = inMultilineString {
                if occurrences(of: delimiter, in: line) % 2 == 1 { inMultilineString = nil }
                continue
            }
            if line.first == "[" {
                let name = line.dropFirst(line.hasPrefix("[[") ? 2 : 1).drop { $0 == " " || $0 == "\t" }
                guard let first = name.first, isKeyStart(first) else {
                    return (index + 1, "a table name must start with a letter, a digit, _, - or a quote")
                }
                continue
            }
            for delimiter in ["\"\"\"", "'''"] where occurrences(of: delimiter, in: line) % 2 == 1 {
                inMultilineString = delimiter
                break
            }
        }
        return nil
    }

    static func isKeyStart(_ character: Character) -> Bool {
        guard let ascii = character.asciiValue else { return false }
        return (ascii >= 0x30 && ascii <= 0x39) || (ascii >= 0x41 && ascii <= 0x5A) || (ascii >= 0x61 && ascii <= 0x7A)
            || character == "_" || character == "-" || character == "\"" || character == "'"
    }

    private static func occurrences(of delimiter: String, in line: Substring) -> Int {
        line.components(separatedBy: delimiter).count - 1
    }
}
