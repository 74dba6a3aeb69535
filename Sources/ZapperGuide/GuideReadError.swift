import Foundation
import ZapperCore

/// What a read of a guide gave: the guide, the programmes and channels it
/// skipped (each with its line), and counts for the log.
public struct GuideDocument: Sendable {
    public var guide: Guide
    public var problems: [InputProblem]
    public var counts: GuideCollector.Counts
    /// XML bytes read (after gzip decompression).
    public var bytes: Int

    public init(guide: Guide, problems: [InputProblem], counts: GuideCollector.Counts, bytes: Int) {
        self.guide = guide
        self.problems = problems
        self.counts = counts
        self.bytes = bytes
    }
}

/// A guide that could not be read: which file or URL, where, and why.
///
/// `partial` holds the programmes that were complete before the error. A
/// document that breaks off is not trusted as a whole: the reader never
/// returns it as if it were good. A caller that already has a guide keeps it;
/// one that has none may show `partial` (the programmes in it are whole, only
/// those after the break are missing).
public struct GuideReadError: Error, Sendable, CustomStringConvertible {
    public var source: String
    /// 1-based; 0 when the error is not in the XML (a file that cannot be opened, bad gzip).
    public var line: Int
    public var column: Int
    public var message: String
    public var partial: GuideDocument?

    public init(source: String, line: Int = 0, column: Int = 0, message: String, partial: GuideDocument? = nil) {
        self.source = source
        self.line = line
        self.column = column
        self.message = message
        self.partial = partial
    }

    public var description: String {
        line > 0 ? "\(source):\(line):\(column): \(message)" : "\(source): \(message)"
    }

    /// libxml2's error numbers (`xmlParserErrors`).
    enum XMLCode {
        static let documentEnd = 5
    }

    /// Words for the XML errors seen in broken guides.
    static func describe(xmlCode code: Int) -> String {
        switch code {
        case 3: "no XML document found (no '<' at the start)"
        case 4: "the document is empty"
        case 5: "content after the end of the root element"
        case 6, 7, 8: "an invalid character reference"
        case 9, 81: "a byte that is not a character in the document's encoding"
        case 22, 23: "a malformed entity reference (a bare '&'?)"
        case 26, 27: "an undeclared entity (such as &nbsp;), which XML does not know"
        case 31, 32: "an encoding the parser does not know"
        case 38: "a '<' inside an attribute value"
        case 39, 40, 41, 42, 43, 44: "a malformed attribute"
        case 63: "an unfinished CDATA section"
        case 68: "a name was expected"
        case 73: "a tag is not closed with '>'"
        case 76: "an end tag does not match its start tag"
        case 77: "an element is not closed"
        case 85: "the elements are not balanced"
        case 89: "entities that expand without end (an entity bomb)"
        case 86: "extra content"
        case 111: "parsing was stopped"
        default: "XML error \(code)"
        }
    }
}
