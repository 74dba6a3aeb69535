import Foundation
import Synchronization

/// The faults switched on for one channel. Text form, shared by the CLI flag
/// and the HTTP control endpoint: comma-separated `KIND[=VALUE]`, e.g.
/// `delay=3000,segment-404`.
///
/// | kind | effect |
/// |---|---|
/// | `segment-404` | media segments answer 404 |
/// | `playlist-5xx[=CODE]` | master and media playlists answer CODE (default 503) |
/// | `stall` | media playlists stop advancing where they were when the stall began |
/// | `bandwidth=BYTES_PER_S` | every response body of the channel is paced to that rate |
/// | `truncate[=FRACTION]` | segments are cut to FRACTION of their bytes (default 0.5), Content-Length matching |
/// | `reset[=FRACTION]` | segments announce their full length, send FRACTION (default 0.5), then the TCP connection is reset |
/// | `outage` | every request for the channel is answered by dropping the connection |
/// | `delay=MS` | every request for the channel waits MS before its answer starts |
/// | `freeze` | a segment's video is its first picture again and again, five a second (pictures keep coming, frozen) |
/// | `no-range` | segments ignore Range requests: the whole segment, 200 |
public struct FaultSet: Equatable, Sendable {
    public var segment404 = false
    public var playlistStatus: Int?
    public var stall = false
    public var bytesPerSecond: Int?
    public var truncateFraction: Double?
    public var resetFraction: Double?
    public var outage = false
    public var delayMs = 0
    public var freeze = false
    public var noRange = false

    public init() {}

    public var isEmpty: Bool { self == FaultSet() }

    public init(spec: String) throws {
        self.init()
        for item in spec.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !item.isEmpty {
            let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
            let kind = parts[0].lowercased()
            let value = parts.count > 1 ? parts[1] : nil
            func number<T: LosslessStringConvertible>(_ type: T.Type, required: Bool) throws -> T? {
                guard let value else {
                    if required { throw OriginError.badFaultSpec("\"\(kind)\" needs a value (\(kind)=N)") }
                    return nil
                }
                guard let parsed = T(value) else {
                    throw OriginError.badFaultSpec("\"\(value)\" is not a number in \"\(item)\"")
                }
                return parsed
            }
            func noValue() throws {
                if value != nil { throw OriginError.badFaultSpec("\"\(kind)\" takes no value") }
            }
            func fraction() throws -> Double {
                let f = try number(Double.self, required: false) ?? 0.5
                guard f > 0, f < 1 else { throw OriginError.badFaultSpec("\"\(item)\": the fraction must be between 0 and 1") }
                return f
            }
            switch kind {
            case "segment-404": try noValue(); segment404 = true
            case "playlist-5xx":
                let code = try number(Int.self, required: false) ?? 503
                guard (500...599).contains(code) else { throw OriginError.badFaultSpec("\"\(item)\": \(code) is not a 5xx status") }
                playlistStatus = code
            case "stall": try noValue(); stall = true
            case "bandwidth":
                let rate = try number(Int.self, required: true)!
                guard rate > 0 else { throw OriginError.badFaultSpec("\"\(item)\": the rate must be positive") }
                bytesPerSecond = rate
            case "truncate": truncateFraction = try fraction()
            case "reset": resetFraction = try fraction()
            case "outage": try noValue(); outage = true
            case "freeze": try noValue(); freeze = true
            case "no-range": try noValue(); noRange = true
            case "delay":
                let ms = try number(Int.self, required: true)!
                guard ms >= 0 else { throw OriginError.badFaultSpec("\"\(item)\": the delay must not be negative") }
                delayMs = ms
            default:
                throw OriginError.badFaultSpec("unknown fault \"\(kind)\" (known: segment-404, playlist-5xx, stall, bandwidth, truncate, reset, outage, delay, freeze, no-range)")
            }
        }
    }

    /// The canonical text form; `FaultSet(spec: f.spec) == f`.
    public var spec: String {
        var items: [String] = []
        if segment404 { items.append("segment-404") }
        if let playlistStatus { items.append("playlist-5xx=\(playlistStatus)") }
        if stall { items.append("stall") }
        if let bytesPerSecond { items.append("bandwidth=\(bytesPerSecond)") }
        if let truncateFraction { items.append("truncate=\(truncateFraction)") }
        if let resetFraction { items.append("reset=\(resetFraction)") }
        if outage { items.append("outage") }
        if delayMs > 0 { items.append("delay=\(delayMs)") }
        if freeze { items.append("freeze") }
        if noRange { items.append("no-range") }
        return items.joined(separator: ",")
    }
}

/// The faults of every channel, changed while the origin runs. A stall keeps
/// the moment it began, which is the time the channel's playlists show.
public final class FaultBoard: Sendable {
    private struct Entry {
        var faults: FaultSet
        var stalledAt: Double?
        /// `freeze`: the picture repeated, by rendition (each is encoded apart).
        var frozen: [String: [UInt8]] = [:]
    }
    private let entries = Mutex<[Int: Entry]>([:])

    public init() {}

    public func set(_ faults: FaultSet, channel: Int, now: Double) {
        entries.withLock { entries in
            if faults.isEmpty {
                entries[channel] = nil
                return
            }
            let was = entries[channel]
            entries[channel] = Entry(faults: faults, stalledAt: faults.stall ? (was?.stalledAt ?? now) : nil,
                                     frozen: faults.freeze ? was?.frozen ?? [:] : [:])
        }
    }

    public func clearAll() {
        entries.withLock { $0.removeAll() }
    }

    public func faults(channel: Int) -> FaultSet {
        entries.withLock { $0[channel]?.faults ?? FaultSet() }
    }

    /// The time a channel's playlists are written for: now, or when its stall began.
    public func playlistTime(channel: Int, now: Double) -> Double {
        entries.withLock { $0[channel]?.stalledAt ?? now }
    }

    /// The picture a frozen channel repeats in `rendition`: the one kept since the fault began,
    /// else `first` (kept from now on).
    public func frozenPicture(channel: Int, rendition: String, first: [UInt8]) -> [UInt8] {
        entries.withLock { entries in
            guard entries[channel] != nil else { return first }
            if let kept = entries[channel]?.frozen[rendition] { return kept }
            entries[channel]?.frozen[rendition] = first
            return first
        }
    }

    public var all: [Int: FaultSet] {
        entries.withLock { $0.mapValues(\.faults) }
    }
}
