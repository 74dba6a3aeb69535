import Foundation
import ZapperCore

/// Reads an XMLTV guide without ever holding the whole document: from a file
/// (`read(path:)`), or from bytes arriving in chunks (`feed(_:)` … `finish()`),
/// such as an http(s) download. Plain XML in any encoding libxml2 knows (the
/// XML declaration says which: UTF-8, UTF-16 with its BOM, ISO-8859-1,
/// windows-1252, …) or gzip-compressed (`.xml.gz`, told by its magic bytes
/// 1f 8b, not by the name).
///
/// Why a thread: parsing a large guide takes seconds of CPU, which must not
/// hold one of Swift's cooperative threads. So `feed` puts chunks in a small
/// queue, and a thread of its own takes them (waiting when it is empty) and
/// hands them to libxml2's push parser. `feed` suspends, without blocking a
/// thread, while more than `queueLimit` bytes wait, so a fast download cannot
/// outrun the parser's memory.
public final class GuideReader: Sendable {
    public struct Options: Sendable {
        /// Keep only the programmes this window keeps (bounded memory); `nil` keeps all.
        public var window: GuideWindow?
        /// Keep only these channels (the lineup's `tvg-id`s and names); `nil` keeps all.
        public var wanted: GuideWanted?
        /// Of texts in several languages, these win, in order (`["en", "de"]`).
        public var preferredLanguages: [String]

        /// `channelIDs`: keep only these ids (a `wanted` without names).
        public init(window: GuideWindow? = nil, channelIDs: Set<String>? = nil, wanted: GuideWanted? = nil,
                    preferredLanguages: [String] = []) {
            self.window = window
            self.wanted = wanted ?? channelIDs.map { GuideWanted(ids: $0) }
            self.preferredLanguages = preferredLanguages
        }
    }

    public let source: String
    private let queue: ChunkQueue

    /// Starts a reader whose bytes will come from `feed`. `source` (a URL or path) names it in errors.
    public init(source: String, options: Options = Options(), queueLimit: Int = 1 << 20) {
        self.source = source
        let queue = ChunkQueue(limit: queueLimit)
        self.queue = queue
        let thread = Thread {
            let result = Result { () throws(GuideReadError) -> GuideDocument in
                try Self.parse(source: source, options: options, pull: { try queue.take() })
            }
            queue.parserFinished(result)
        }
        thread.name = "zapper-guide"
        thread.start()
    }

    deinit {
        queue.cancel()
    }

    /// Hands the parser the next bytes. Suspends while the queue is full.
    /// Throws the read's error as soon as the parser has failed, so a download can stop early.
    public func feed(_ chunk: [UInt8]) async throws(GuideReadError) {
        await queue.put(chunk)
        if let failure = queue.failure { throw failure }
    }

    /// Ends the input and waits for the parser: the guide, or why it could not be read.
    public func finish() async throws(GuideReadError) -> GuideDocument {
        queue.close()
        return try await queue.result().get()
    }

    /// Bytes fed and not yet taken by the parser.
    public var queuedBytes: Int { queue.waitingBytes }

    /// Stops the parser; `finish` then throws.
    public func cancel() {
        queue.cancel()
    }

    // MARK: - Whole sources, read on the calling thread

    /// Reads a file (plain or gzip) in 64 KiB pieces. Blocks: call it from a thread of its own.
    public static func read(path: String, options: Options = Options()) throws(GuideReadError) -> GuideDocument {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            let reason = String(cString: strerror(errno))
            throw GuideReadError(source: path, message: "cannot open the guide: \(reason)")
        }
        defer { try? handle.close() }
        return try parse(source: path, options: options) {
            guard let data = try handle.read(upToCount: 64 * 1024), !data.isEmpty else { return nil }
            return [UInt8](data)
        }
    }

    /// Reads a guide already in memory (small guides, tests), still through the streaming parser.
    public static func read(bytes: [UInt8], source: String, options: Options = Options(),
                            chunkSize: Int = 64 * 1024) throws(GuideReadError) -> GuideDocument {
        var offset = 0
        return try parse(source: source, options: options) {
            guard offset < bytes.count else { return nil }
            let end = min(bytes.count, offset + max(1, chunkSize))
            defer { offset = end }
            return Array(bytes[offset..<end])
        }
    }

    // MARK: - The parse

    static func parse(source: String, options: Options,
                      pull: @escaping () throws -> [UInt8]?) throws(GuideReadError) -> GuideDocument {
        let handler = XMLTVHandler(
            collector: GuideCollector(source: source, window: options.window, wanted: options.wanted),
            preferredLanguages: options.preferredLanguages)
        let bytes = DecompressingSource(limit: GuideLimits.documentBytes, pull: pull)
        // A stray byte that is not UTF-8 in a UTF-8 guide would end the parse: repaired first (UTF8Repair).
        let repaired = RepairedSource(bytes)
        let parser = XMLPushParser(source: source, events: handler)
        var delivered = 0
        var readFailure: Error?
        do {
            // After a fatal error libxml2 would read on to the end; stop instead.
            while !handler.failed, !parser.stopped, let chunk = try repaired.next() {
                delivered += chunk.count
                parser.feed(chunk)
            }
            if !handler.failed, !parser.stopped {
                handler.inputEnded = true
                parser.finish()
            }
        } catch {
            readFailure = error
        }

        var collector = handler.collector
        let guide = collector.finish()
        let document = GuideDocument(guide: guide, problems: collector.problems, counts: collector.counts,
                                     bytes: delivered)
        func failure(_ message: String, line: Int = 0, column: Int = 0) -> GuideReadError {
            GuideReadError(source: source, line: line, column: column, message: message, partial: document)
        }
        if let error = readFailure {
            if error is CancellationError { throw failure("reading was cancelled") }
            if let error = error as? ZlibError { throw failure(error.description) }
            if error is DecompressingSource.TooLarge {
                throw failure("the guide is larger than \(GuideLimits.documentBytes >> 20) MB of XML; it is not read")
            }
            throw failure("cannot read the guide: \(error)")
        }
        guard let root = handler.rootName else {
            if let error = handler.parseError {
                throw failure(delivered == 0 ? "the guide is empty" : GuideReadError.describe(xmlCode: error.code),
                              line: error.line, column: error.column)
            }
            throw failure("the guide is empty")
        }
        guard root == "tv" else {
            throw failure("not an XMLTV guide: the root element is <\(root)>, not <tv>", line: 1)
        }
        if let error = handler.parseError {
            let message = if error.afterEnd && !handler.rootEnded {
                "the document ends before </tv> (truncated?)"
            } else if error.code == GuideReadError.XMLCode.documentEnd {
                "content after the end of </tv>"
            } else {
                GuideReadError.describe(xmlCode: error.code)
            }
            throw failure(message, line: error.line, column: error.column)
        }
        guard handler.rootEnded else {
            throw failure("the document ends before </tv> (truncated?)", line: parser.lineNumber)
        }
        return document
    }
}

/// The document's bytes as the XML parser may see them (`UTF8Repair`). Whether
/// to repair is decided on the XML declaration, so the first 256 bytes go as one.
final class RepairedSource {
    private let source: DecompressingSource
    private var repair = UTF8Repair()
    private var started = false
    private var ended = false

    init(_ source: DecompressingSource) {
        self.source = source
    }

    func next() throws -> [UInt8]? {
        if !started {
            started = true
            var head: [UInt8] = []
            while head.count < 256, !head.contains(UInt8(ascii: ">")), let more = try pull() { head += more }
            if !head.isEmpty { return repair.first(head) }
        }
        guard let chunk = try pull() else {
            let rest = repair.finish()
            return rest.isEmpty ? nil : rest
        }
        return repair.feed(chunk)
    }

    private func pull() throws -> [UInt8]? {
        guard !ended, let chunk = try source.next() else {
            ended = true
            return nil
        }
        return chunk
    }
}

/// The bytes of a source, gunzipped when they start with gzip's magic bytes.
/// Compressed input goes to zlib 4 KiB at a time, so even a "zip bomb" piece
/// makes at most a few megabytes of output at once; past `limit` bytes in all
/// it throws `TooLarge`.
final class DecompressingSource {
    struct TooLarge: Error {}
    private let limit: Int
    private var given = 0
    private let pull: () throws -> [UInt8]?
    private var prefix: [UInt8] = []
    private var decided = false
    private var inflater: GzipInflater?
    private var output: [[UInt8]] = []
    private var outputIndex = 0
    private var ended = false

    init(limit: Int = .max, pull: @escaping () throws -> [UInt8]?) {
        self.limit = limit
        self.pull = pull
    }

    func next() throws -> [UInt8]? {
        guard let chunk = try nextUnbounded() else { return nil }
        given += chunk.count
        if given > limit { throw TooLarge() }
        return chunk
    }

    private func nextUnbounded() throws -> [UInt8]? {
        while true {
            if outputIndex < output.count {
                defer { outputIndex += 1 }
                return output[outputIndex]
            }
            output.removeAll(keepingCapacity: true)
            outputIndex = 0
            if ended { return nil }

            var chunk = try pull()
            if !decided {
                // Wait for two bytes to tell gzip from XML.
                if let more = chunk, prefix.count + more.count < 2 {
                    prefix += more
                    continue
                }
                decided = true
                chunk = prefix + (chunk ?? [])
                prefix = []
                if GzipInflater.isGzip(chunk!) { inflater = try GzipInflater() }
                if chunk!.isEmpty { chunk = nil }
            }
            guard let chunk else {
                ended = true
                try inflater?.finish()
                continue
            }
            guard let inflater else { return chunk }
            var offset = 0
            while offset < chunk.count {
                let end = min(chunk.count, offset + 4096)
                try inflater.inflate(Array(chunk[offset..<end])) { output.append($0) }
                offset = end
            }
        }
    }
}
