import Foundation
import Synchronization

extension OriginRouter {
    /// `/hdhomerun/…`: the broadcast channels behind a network tuner shaped like
    /// SiliconDust's HDHomeRun, with `tunerCount` tuners:
    ///
    /// | path | what it is |
    /// |---|---|
    /// | `/hdhomerun/discover.json` | the device: FriendlyName, DeviceID, TunerCount, BaseURL, LineupURL |
    /// | `/hdhomerun/lineup.json` | `[{GuideNumber, GuideName, URL, HD, VideoCodec, AudioCodec}]` |
    /// | `/hdhomerun/auto/vN` | broadcast channel N as raw MPEG-TS; `503` when every tuner streams already |
    /// | `/hdhomerun/status.json` | each tuner: `{"Resource": "tuner0", "VctNumber": "101"}` while it streams, `{"Resource": "tuner1"}` when free |
    static let hdhomerunPrefix = "hdhomerun"
    public static let tunerCount = 2

    func hdhomerun(_ path: [String], baseURL: String) -> OriginReply {
        let base = "\(baseURL)/\(Self.hdhomerunPrefix)"
        switch path.joined(separator: "/") {
        case "discover.json":
            let device: [String: Any] = [
                "FriendlyName": "Zapper Origin HDHomeRun", "ModelNumber": "HDHR5-2DT", "FirmwareName": "hdhomerun5_dvbt",
                "FirmwareVersion": "20250815", "DeviceID": "10A1B2C3", "DeviceAuth": "zapper-origin",
                "TunerCount": Self.tunerCount, "BaseURL": base, "LineupURL": "\(base)/lineup.json",
            ]
            return json(device)
        case "lineup.json":
            let entries: [[String: Any]] = catalog.broadcastChannels.map { channel in
                var entry: [String: Any] = ["GuideNumber": "\(channel.number)", "GuideName": channel.name,
                                            "URL": "\(base)/auto/v\(channel.number)",
                                            "AudioCodec": channel.audio.first?.codec.uppercased() ?? ""]
                if let video = channel.video {
                    entry["VideoCodec"] = video.codec == "mpeg2" ? "MPEG2" : "H264"
                    if video.height >= 720 { entry["HD"] = 1 }
                }
                return entry
            }
            return json(entries)
        case "status.json":
            return json(tuners.channels.enumerated().map { index, channel -> [String: Any] in
                var tuner: [String: Any] = ["Resource": "tuner\(index)"]
                if let channel { tuner["VctNumber"] = "\(channel)" }
                return tuner
            })
        default:
            guard path.count == 2, path[0] == "auto", path[1].hasPrefix("v"), let number = Int(path[1].dropFirst()) else {
                return .text(404, "no such HDHomeRun path: /\(Self.hdhomerunPrefix)/\(path.joined(separator: "/"))")
            }
            guard catalog.broadcastChannel(number: number) != nil else { return .text(404, "no channel \(number)") }
            guard let lease = tuners.lease(channel: number) else {
                // What the device answers (its X-HDHomeRun-Error says 805 All Tuners In Use).
                return .text(503, "805 All Tuners In Use")
            }
            return broadcastStream(number, contentType: "video/mp2t", lease: lease)
        }
    }

    private func json(_ object: Any) -> OriginReply {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])) ?? Data()
        return OriginReply(status: 200, contentType: "application/json", body: data)
    }
}

/// The origin HDHomeRun's tuners: a lease per stream, given back when its connection
/// closes (`OriginStream.closed`) or its body is dropped.
final class TunerPool: Sendable {
    /// What each tuner streams (nil: free).
    private let tuned: Mutex<[Int?]>

    init(count: Int) { tuned = Mutex([Int?](repeating: nil, count: max(count, 1))) }

    /// A tuner for `channel` while the returned lease lives, or nil when all are streaming.
    func lease(channel: Int) -> Lease? {
        let index = tuned.withLock { tuned -> Int? in
            guard let free = tuned.firstIndex(where: { $0 == nil }) else { return nil }
            tuned[free] = channel
            return free
        }
        return index.map { Lease(pool: self, index: $0) }
    }

    /// Each tuner's channel, nil when it is free.
    var channels: [Int?] { tuned.withLock { $0 } }

    fileprivate func giveBack(_ index: Int) { tuned.withLock { $0[index] = nil } }

    final class Lease: Sendable {
        private let pool: TunerPool
        private let index: Int
        fileprivate init(pool: TunerPool, index: Int) {
            self.pool = pool
            self.index = index
        }
        deinit { pool.giveBack(index) }
    }
}
