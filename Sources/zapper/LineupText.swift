import Dispatch
import Foundation
import ZapperCore
import ZapperHLS
import ZapperPlayer

/// The lineup's text from a file, or from an http(s) URL (the configuration's
/// `lineup = "https://…"`). A fetched lineup is kept in the state directory,
/// and used, saying so, when a later fetch fails: a box whose provider is
/// down at boot still plays what it had, and fetches the lineup again every
/// two minutes until it comes (`fetchAgain`).
enum LineupText {
    /// The lineup's text, and whether it is the kept copy (the fetch failed).
    struct Read {
        var text: String
        var fromCopy = false
    }

    static func read(_ source: String, cacheDirectory: URL?, say: (String) -> Void) throws -> Read {
        // `HTTP://` is http too (schemes are case-insensitive): fetched with its scheme lower-cased.
        guard let scheme = URL(string: source)?.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            do {
                let size = (try FileManager.default.attributesOfItem(atPath: source)[.size] as? NSNumber)?.intValue ?? 0
                guard size <= LineupLimits.bytes else {
                    throw Failure("\(source): the lineup is \(size >> 20) MB, more than the \(LineupLimits.bytes >> 20) MB a lineup may be")
                }
                return Read(text: try String(contentsOf: URL(fileURLWithPath: source), encoding: .utf8))
            } catch let error as Failure {
                throw error
            } catch {
                throw Failure("\(source): cannot read the lineup (\(error.localizedDescription))")
            }
        }
        let url: URL
        switch MediaURLPolicy.check(source) {
        case .success(let checked): url = checked
        case .failure(let rejection): throw Failure("the lineup \(rejection)")
        }
        let cached = cacheDirectory?.appendingPathComponent("lineup.m3u")
        do {
            let text = try fetch(url)
            if let cached {
                // Atomically, like the state: a power cut leaves the old copy or the new one.
                try? Data(text.utf8).write(to: cached, options: .atomic)
            }
            return Read(text: text)
        } catch {
            if let cached, let text = try? String(contentsOf: cached, encoding: .utf8) {
                say("\(source): \(error); playing the copy fetched before (\(cached.path))")
                return Read(text: text, fromCopy: true)
            }
            throw Failure("\(source): cannot fetch the lineup (\(error))")
        }
    }

    /// Two minutes; `ZAPPER_LINEUP_RETRY_SECONDS` (1…3600) shortens it for the tests.
    static var retryPeriod: Duration {
        let asked = ProcessInfo.processInfo.environment["ZAPPER_LINEUP_RETRY_SECONDS"].flatMap { Int($0) }
        return .seconds(asked.map { min(max($0, 1), 3600) } ?? 120)
    }

    /// While the kept copy `playing` stands in for lineup `source`, fetches it again every `every`
    /// on a thread of its own. Once a fetch works, the copy is replaced; a lineup unlike the copy
    /// makes zapper start again to play it (`Player.requestReload`: the channel and state stay),
    /// the same one only ends the offline state (`fetched`).
    static func fetchAgain(_ source: String, every: Duration = retryPeriod, playing: String, cacheDirectory: URL?,
                           say: @escaping @Sendable (String) -> Void, fetched: @escaping @Sendable () -> Void) {
        guard let url = URL(string: source) else { return }
        let thread = Thread {
            while !Player.reloadRequested {
                Thread.sleep(forTimeInterval: Double(every.components.seconds))
                guard let text = try? fetch(url) else { continue }
                if let cached = cacheDirectory?.appendingPathComponent("lineup.m3u") {
                    try? Data(text.utf8).write(to: cached, options: .atomic)
                }
                if text == playing {
                    say("\(source): fetched again; the same as the copy playing")
                    fetched()
                } else {
                    say("\(source): fetched again, and changed: starting again to play it")
                    Player.requestReload()
                }
                return
            }
        }
        thread.name = "zapper-lineup-fetch"
        thread.start()
    }

    /// The lineup at `url`. An HDHomeRun's answer is completed: its discover.json is followed
    /// to the lineup it names (`LineupURL`), and a lineup.json is joined by the device's
    /// discover.json beside it when there is one (for its `TunerCount`); the two are kept as one
    /// document (`HDHomeRunLineup.combined`).
    private static func fetch(_ url: URL) throws -> String {
        let text = try fetchText(url)
        guard HDHomeRunLineup.looksLikeJSON(text) else { return text }
        if let device = HDHomeRunLineup.device(text) {
            guard let lineupURL = device.lineupURL, !text.contains("\"Lineup\"") else { return text }
            let lineup = try fetchText(lineupURL)
            return HDHomeRunLineup.combined(discover: text, lineup: lineup) ?? lineup
        }
        let discoverURL = url.deletingLastPathComponent().appendingPathComponent("discover.json")
        guard let discover = try? fetchText(discoverURL), HDHomeRunLineup.device(discover)?.tuners != nil else { return text }
        return HDHomeRunLineup.combined(discover: discover, lineup: text) ?? text
    }

    /// Waits for the fetch on the calling thread (the command's main thread, not Swift's pool).
    private static func fetchText(_ url: URL) throws -> String {
        let result = Box()
        let done = DispatchSemaphore(value: 0)
        Task {
            do {
                result.value = .success(try await HTTPFetcher.shared.text(url, limit: LineupLimits.bytes, seconds: 60))
            } catch {
                result.value = .failure(error)
            }
            done.signal()
        }
        done.wait()
        return try result.value!.get()
    }

    private final class Box: @unchecked Sendable {
        var value: Result<String, any Error>?
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
