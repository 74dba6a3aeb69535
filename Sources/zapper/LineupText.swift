import Dispatch
import Foundation
import ZapperCore
import ZapperHLS

/// The lineup's text from a file, or from an http(s) URL (the configuration's
/// `lineup = "https://…"`). A fetched lineup is kept in the state directory,
/// and used, saying so, when a later fetch fails: a box whose provider is
/// down at boot still plays what it had.
enum LineupText {
    static func read(_ source: String, cacheDirectory: URL?, say: (String) -> Void) throws -> String {
        guard let url = URL(string: source), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            do {
                let size = (try FileManager.default.attributesOfItem(atPath: source)[.size] as? NSNumber)?.intValue ?? 0
                guard size <= LineupLimits.bytes else {
                    throw Failure("\(source): the lineup is \(size >> 20) MB, more than the \(LineupLimits.bytes >> 20) MB a lineup may be")
                }
                return try String(contentsOf: URL(fileURLWithPath: source), encoding: .utf8)
            } catch let error as Failure {
                throw error
            } catch {
                throw Failure("\(source): cannot read the lineup (\(error.localizedDescription))")
            }
        }
        let cached = cacheDirectory?.appendingPathComponent("lineup.m3u")
        do {
            let text = try fetch(url)
            if let cached {
                // Atomically, like the state: a power cut leaves the old copy or the new one.
                try? Data(text.utf8).write(to: cached, options: .atomic)
            }
            return text
        } catch {
            if let cached, let text = try? String(contentsOf: cached, encoding: .utf8) {
                say("\(source): \(error); playing the copy fetched before (\(cached.path))")
                return text
            }
            throw Failure("\(source): cannot fetch the lineup (\(error))")
        }
    }

    /// Waits for the fetch on the calling thread (the command's main thread, not Swift's pool).
    private static func fetch(_ url: URL) throws -> String {
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
