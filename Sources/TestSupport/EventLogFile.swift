import Foundation
import ZapperCore

/// A zapper's event log (`--events`) read back as typed events, for every test that starts the
/// real binary.
public enum EventLogFile {
    /// The events in the file at `url`, and each line that did not read back as one (with its
    /// reason). `live`: zapper still writes the file, and a last line without its newline is one
    /// being written, left for the next read.
    public static func read(at url: URL, live: Bool) -> (events: [LoggedEvent], failures: [EventLineError]) {
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        var lines = text.split(separator: "\n")
        if live, !text.hasSuffix("\n"), !lines.isEmpty { lines.removeLast() }
        var events: [LoggedEvent] = []
        var failures: [EventLineError] = []
        for line in lines {
            do throws(EventLineError) { events.append(try LoggedEvent(jsonLine: line)) } catch { failures.append(error) }
        }
        return (events, failures)
    }
}
