/// A `}` where an array's value should be (`a = [}`, `a = [1, }`) trips an
/// assertion inside toml++ (undefined behaviour when assertions are compiled out)
/// instead of a parse error. No valid TOML closes an array with `}`, so any `}`
/// whose innermost open bracket is an array's `[` is reported here first, with its
/// line. Strings, comments and table headers are stepped over.
extension TOMLPrecheck {
    /// The 1-based line and message of the first `}` inside an array, if any.
    static func braceInArray(in text: String) -> (line: Int, message: String)? {
        let scalars = Array(text.unicodeScalars)
        var open: [Unicode.Scalar] = []  // the value brackets open: `[` of arrays, `{` of inline tables
        var line = 1
        var lineStart = true  // nothing but spaces and tabs read on this line yet
        var index = 0
        func starts(_ delimiter: String, at position: Int) -> Bool {
            let wanted = Array(delimiter.unicodeScalars)
            return position + wanted.count <= scalars.count && Array(scalars[position..<position + wanted.count]) == wanted
        }
        /// Moves past a string opened at `index`, counting its lines.
        func skipString() {
            let quote = scalars[index]
            let delimiter = String(repeating: String(quote), count: starts(String(repeating: String(quote), count: 3), at: index) ? 3 : 1)
            index += delimiter.unicodeScalars.count
            while index < scalars.count {
                if quote == "\"", scalars[index] == "\\" {
                    index += 2
                    continue
                }
                if starts(delimiter, at: index) {
                    index += delimiter.unicodeScalars.count
                    return
                }
                if scalars[index] == "\n" {
                    if delimiter.unicodeScalars.count == 1 { return }  // an unclosed one-line string: toml++ says so
                    line += 1
                }
                index += 1
            }
        }
        /// Moves to the end of the line (its newline is read next).
        func skipLine() {
            while index < scalars.count, scalars[index] != "\n" { index += 1 }
        }
        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case "\"", "'":
                skipString()
                lineStart = false
                continue
            case "#":
                skipLine()
                continue
            case "\n":
                line += 1
                lineStart = true
            case " ", "\t":
                break
            case "[" where lineStart && open.isEmpty:
                skipLine()  // a table header: no value on its line
                continue
            case "[", "{":
                open.append(scalar)
            case "]":
                if open.last == "[" { open.removeLast() }
            case "}":
                if open.last == "[" { return (line, "a } where an array's value or its ] was expected") }
                if open.last == "{" { open.removeLast() }
            default:
                break
            }
            if scalar != "\n", scalar != " ", scalar != "\t" { lineStart = false }
            index += 1
        }
        return nil
    }
}
