/// The text of a caption event as libavcodec's closed-caption decoder gives it
/// (an ASS dialogue: `ReadOrder,Layer,Style,Name,MarginL,MarginR,MarginV,Effect,Text`,
/// positioned with `{\an7}{\pos(x,y)}` per row, rows ended by `\N`) turned into
/// plain lines for the screen. Bytes come from the stream: the text is capped.
public enum CaptionText {
    /// A 608 screen has 15 rows of 32 columns; a little room is left for 708's wider rows.
    public static let maximumLines = 15
    public static let maximumColumns = 42
    /// Longer events are cut here before they are read.
    public static let maximumEventBytes = 8 << 10

    /// The lines of an ASS dialogue event, top to bottom, without override
    /// tags; empty for an event that clears the screen.
    public static func lines(fromASS event: String) -> [String] {
        var scalars = Array(event.unicodeScalars.prefix(maximumEventBytes))
        // The text is the ninth field: the first eight commas end the others.
        var commas = 0
        var start = scalars.startIndex
        while commas < 8, start < scalars.endIndex {
            if scalars[start] == "," { commas += 1 }
            start += 1
        }
        // A bare text (no dialogue fields) is read whole.
        if commas < 8 { start = scalars.startIndex }
        scalars = Array(scalars[start...])

        var lines: [String] = []
        var line = String.UnicodeScalarView()
        var index = 0
        func endLine() {
            let text = String(line).trimmingTrailingSpaces
            if !text.isEmpty || !lines.isEmpty { lines.append(text) }
            line = String.UnicodeScalarView()
        }
        while index < scalars.count, lines.count < maximumLines {
            let scalar = scalars[index]
            if scalar == "{" {
                // An override block: skipped up to its closing brace (an unclosed one ends the text).
                guard let close = scalars[index...].firstIndex(of: "}") else { break }
                index = close + 1
                continue
            }
            if scalar == "\\", index + 1 < scalars.count {
                let next = scalars[index + 1]
                if next == "N" || next == "n" {
                    endLine()
                    index += 2
                    continue
                }
                if next == "h" {
                    if line.count < maximumColumns { line.append(" ") }
                    index += 2
                    continue
                }
            }
            if scalar == "\n" {
                endLine()
            } else if scalar.value >= 0x20, scalar.value != 0x7F, line.count < maximumColumns {
                line.append(scalar)
            }
            index += 1
        }
        if lines.count < maximumLines { endLine() }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }
}

extension String {
    fileprivate var trimmingTrailingSpaces: String {
        var scalars = unicodeScalars[...]
        while let last = scalars.last, last == " " || last == "\u{A0}" { scalars = scalars.dropLast() }
        return String(String.UnicodeScalarView(scalars))
    }
}
