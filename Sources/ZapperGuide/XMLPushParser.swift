import CLibXML2

/// What the XML parser finds, in document order. Element names are as written
/// (`prefix:name` when there is a prefix); text arrives as UTF-8 in pieces.
protocol XMLEvents: AnyObject {
    func startElement(_ name: String, attributes: [String: String], parser: XMLPushParser)
    func characters(_ utf8: UnsafeBufferPointer<UInt8>)
    func endElement(_ name: String)
    /// An error (never a warning): libxml2's code (`xmlParserErrors`) and where.
    func error(code: Int, line: Int, column: Int)
}

/// libxml2's SAX push parser, fed chunk by chunk (`feed`, then `finish`):
/// the document is never in memory whole.
///
/// Only what a guide needs reaches `events`: elements, their attributes and
/// text. Processing instructions and comments are not reported. Entities
/// declared in the document's own DTD are expanded (libxml2's amplification
/// limits stop an entity bomb); external ones (`SYSTEM "file:…"`) and the
/// network are never loaded. libxml2's own limits hold (element depth 256,
/// 10 MB of text in one node).
///
/// Not thread-safe: one thread feeds it.
final class XMLPushParser {
    private let source: String
    private let events: XMLEvents
    private var context: xmlParserCtxtPtr?
    /// Whether `stop()` was called: the parser reads no more.
    private(set) var stopped = false

    /// `source` (a URL or path) is what libxml2 calls the document.
    init(source: String, events: XMLEvents) {
        _ = Self.setUp
        self.source = source
        self.events = events
    }

    deinit {
        guard let context else { return }
        if let document = context.pointee.myDoc { xmlFreeDoc(document) }
        xmlFreeParserCtxt(context)
    }

    /// Parses the next bytes of the document.
    func feed(_ bytes: [UInt8]) {
        guard !stopped else { return }
        guard let context else {
            // The first bytes go to the context itself: libxml2 tells the encoding from them.
            start(bytes)
            return
        }
        bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress?.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                _ = xmlParseChunk(context, $0, Int32(buffer.count), 0)
            }
        }
    }

    /// The end of the document: what it still lacks (an end tag) is reported as an error.
    func finish() {
        if context == nil { start([]) }
        guard !stopped, let context else { return }
        _ = xmlParseChunk(context, nil, 0, 1)
    }

    /// Reads no more (from a callback: the document is not wanted).
    func stop() {
        stopped = true
        if let context { xmlStopParser(context) }
    }

    /// The line (1-based) the parser is at.
    var lineNumber: Int {
        guard let context else { return 0 }
        return Int(xmlSAX2GetLineNumber(UnsafeMutableRawPointer(context)))
    }

    var columnNumber: Int {
        guard let context else { return 0 }
        return Int(xmlSAX2GetColumnNumber(UnsafeMutableRawPointer(context)))
    }

    // MARK: - libxml2

    private static let setUp: Void = {
        xmlInitParser()
        zapper_xml_forbid_external_entities()
    }()

    private func start(_ first: [UInt8]) {
        var handler = Self.makeHandler()
        let created = first.withUnsafeBufferPointer { buffer in
            buffer.baseAddress?.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                xmlCreatePushParserCtxt(&handler, nil, $0, Int32(buffer.count), source)
            } ?? xmlCreatePushParserCtxt(&handler, nil, nil, 0, source)
        }
        guard let created else {
            stopped = true
            events.error(code: Int(XML_ERR_NO_MEMORY.rawValue), line: 0, column: 0)
            return
        }
        context = created
        // The user data stays the context (libxml2's own DTD callbacks need it); this object rides along.
        created.pointee._private = Unmanaged.passUnretained(self).toOpaque()
        _ = xmlCtxtUseOptions(created, Int32(XML_PARSE_NOENT.rawValue | XML_PARSE_NONET.rawValue))
        // Parse what came (libxml2 only stores a first chunk), so that errors in it are seen before the end.
        _ = xmlParseChunk(created, nil, 0, 0)
    }

    /// The parser a callback is for: the context's `_private` (also for entity sub-parsers, which copy it).
    private static func parser(_ context: UnsafeMutableRawPointer?) -> XMLPushParser? {
        guard let context,
              let owner = context.assumingMemoryBound(to: xmlParserCtxt.self).pointee._private else { return nil }
        return Unmanaged<XMLPushParser>.fromOpaque(owner).takeUnretainedValue()
    }

    private static func string(_ bytes: UnsafePointer<xmlChar>?) -> String {
        bytes.map { String(cString: $0) } ?? ""
    }

    private static func name(_ local: UnsafePointer<xmlChar>?, _ prefix: UnsafePointer<xmlChar>?) -> String {
        prefix.map { string($0) + ":" + string(local) } ?? string(local)
    }

    /// SAX2's defaults (so that the document's own DTD and entities work) with the
    /// element, text and error callbacks ours, and nothing for what a guide does not need.
    private static func makeHandler() -> xmlSAXHandler {
        var sax = xmlSAXHandler()
        _ = xmlSAXVersion(&sax, 2)
        sax.startElement = nil
        sax.endElement = nil
        sax.processingInstruction = nil
        sax.comment = nil
        sax.reference = nil
        sax.externalSubset = nil
        sax.warning = nil
        sax.error = nil
        sax.fatalError = nil
        sax.startElementNs = { context, local, prefix, _, _, _, count, _, attributes in
            guard let parser = XMLPushParser.parser(context) else { return }
            var values: [String: String] = [:]
            if let attributes, count > 0 {
                // Five pointers each: local name, prefix, URI, value start, value end (not NUL-terminated).
                for index in 0..<Int(count) {
                    let base = index * 5
                    guard let start = attributes[base + 3], let end = attributes[base + 4], end >= start else { continue }
                    let value = String(decoding: UnsafeBufferPointer(start: start, count: end - start), as: UTF8.self)
                    values[XMLPushParser.name(attributes[base], attributes[base + 1])] = value
                }
            }
            parser.events.startElement(XMLPushParser.name(local, prefix), attributes: values, parser: parser)
        }
        sax.endElementNs = { context, local, prefix, _ in
            XMLPushParser.parser(context)?.events.endElement(XMLPushParser.name(local, prefix))
        }
        let characters: charactersSAXFunc = { context, bytes, count in
            guard let bytes, count > 0, let parser = XMLPushParser.parser(context) else { return }
            parser.events.characters(UnsafeBufferPointer(start: bytes, count: Int(count)))
        }
        sax.characters = characters
        sax.cdataBlock = characters
        sax.ignorableWhitespace = characters
        sax.serror = { context, error in
            guard let error, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue,
                  let parser = XMLPushParser.parser(context) else { return }
            let code = Int(error.pointee.code)
            if context == parser.context.map(UnsafeMutableRawPointer.init) {
                parser.events.error(code: code, line: Int(error.pointee.line), column: Int(error.pointee.int2))
            } else {
                // From inside an entity's text (libxml2 parses it on a context of its own): where the reference is.
                parser.events.error(code: code, line: parser.lineNumber, column: parser.columnNumber)
            }
        }
        return sax
    }
}
