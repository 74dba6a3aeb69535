import Foundation
import Testing
import TestSupport
import ZapperCore
@testable import ZapperGuide

/// A 50 MB guide is read with memory far below its size: the parser streams,
/// and only the window of the lineup's channels is kept.
@Suite(.serialized) struct GuideMemoryTests {
    static let channels = 600
    static let days = 7
    static let weekStart = utcDate(2026, 11, 16)

    /// Writes a week of half-hour programmes for 600 channels (about 50 MB), 1 MB at a time.
    static func writeLargeGuide(to url: URL) throws -> Int {
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        var buffer = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<tv generator-info-name=\"memory-test\">\n"
        var written = 0
        func flush(_ force: Bool) throws {
            guard force || buffer.utf8.count > 1 << 20 else { return }
            let data = Data(buffer.utf8)
            try handle.write(contentsOf: data)
            written += data.count
            buffer = ""
        }
        let base = Int64(weekStart.timeIntervalSince1970)
        for channel in 0..<channels {
            buffer += "<channel id=\"ch\(channel).example\"><display-name>Channel \(channel)</display-name></channel>\n"
        }
        for channel in 0..<channels {
            for slot in 0..<(days * 48) {
                let start = XMLTVTime.format(seconds: base + Int64(slot) * 1800)
                let stop = XMLTVTime.format(seconds: base + Int64(slot + 1) * 1800)
                buffer += "<programme start=\"\(start)\" stop=\"\(stop)\" channel=\"ch\(channel).example\">"
                    + "<title lang=\"en\">Show \(slot)</title><desc lang=\"en\">Episode \(slot) of channel \(channel)."
                    + " A description of some length.</desc><category>Series</category></programme>\n"
                try flush(false)
            }
        }
        buffer += "</tv>\n"
        try flush(true)
        return written
    }

    /// Resets the peak resident set size (Linux: 5 > /proc/self/clear_refs).
    static func resetPeak() {
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    }

    /// Peak resident set size in bytes (VmHWM).
    static func peakBytes() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
        let kilobytes = try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
        return kilobytes * 1024
    }

    static let probeVariable = "ZAPPER_GUIDE_MEMORY_PROBE"

    /// The lineup has 100 of the 600 channels; the window is 25 hours of the week.
    static let options = GuideReader.Options(
        window: GuideWindow(now: weekStart.addingTimeInterval(3.5 * 86_400)),
        channelIDs: Set((0..<100).map { "ch\($0 * 6).example" }))

    /// Other suites run in parallel in this process and use memory of their
    /// own, so the measurement runs in a child: this test binary again, with
    /// only `memoryProbe` enabled.
    @Test func aFiftyMegabyteGuideStaysSmall() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("guide-memory-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("large.xml")
        let size = try await offPool { try Self.writeLargeGuide(to: url) }  // seconds of formatting
        #expect(size > 45_000_000)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["--testing-library", "swift-testing", "--filter", "memoryProbe"]
        process.environment = ProcessInfo.processInfo.environment.merging([Self.probeVariable: url.path]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Read and waited for off the pool: the child takes seconds.
        let text = try await offPool {
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return text
        }
        let results = text.split(separator: "\n").filter { $0.hasPrefix("guide-memory ") }
        print(results.joined(separator: "\n"))
        #expect(process.terminationStatus == 0)
        #expect(results.count == 2)
        for line in results {
            let growth = try #require(line.split(separator: " ").first { $0.hasPrefix("growth=") }
                .flatMap { Int($0.dropFirst("growth=".count)) })
            // Measured: about 3 MB for any guide (a 0.5 MB one too) plus what the
            // kept window costs (5,000 programmes here): 7-8 MB for this 49 MB file.
            #expect(growth < size / 4, "\(line)")
        }
    }

    /// Run only by `aFiftyMegabyteGuideStaysSmall`, in a process of its own.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[probeVariable] != nil))
    func memoryProbe() async throws {
        let path = try #require(ProcessInfo.processInfo.environment[Self.probeVariable])
        // Warm up: load libxml2's code and start a reader thread
        // once, so that what is measured is what the guide's size costs.
        _ = try GuideReader.read(bytes: Array(originShapedGuide.utf8), source: "warm-up")
        let warmUp = GuideReader(source: "warm-up")
        try await warmUp.feed(Array(originShapedGuide.utf8))
        _ = try await warmUp.finish()

        Self.resetPeak()
        let before = try Self.peakBytes()
        let started = Date()
        let document = try GuideReader.read(path: path, options: Self.options)
        let growth = try Self.peakBytes() - before
        print("guide-memory read(path:) growth=\(growth) seconds=\(Date().timeIntervalSince(started))")
        #expect(document.counts.read == Self.channels * Self.days * 48)
        #expect(document.guide.channelIDs.count == 100)
        #expect(document.guide.programmeCount == 100 * 50)

        // The same through the chunked reader, as a download would feed it.
        Self.resetPeak()
        let beforeFeed = try Self.peakBytes()
        let reader = GuideReader(source: path, options: Self.options)
        let handle = try #require(FileHandle(forReadingAtPath: path))
        defer { try? handle.close() }
        while let data = try handle.read(upToCount: 64 * 1024), !data.isEmpty {
            try await reader.feed([UInt8](data))
        }
        let fed = try await reader.finish()
        print("guide-memory feed growth=\(try Self.peakBytes() - beforeFeed)")
        #expect(fed.guide == document.guide)
    }
}
