import Foundation

/// A network tuner's answers in words: a host with tuners of its own (an HDHomeRun's
/// `TunerCount`, `Lineup.tunerLimits`) answering `503` means every tuner is streaming
/// (HDHomeRun: "805 All Tuners In Use"), not that its server has a problem.
public enum NetworkTuner {
    public static func explain(_ failure: PlaybackFailure, url: URL, limits: [String: Int]) -> PlaybackFailure {
        guard failure.kind == .http(status: 503), let host = url.host?.lowercased(), let tuners = limits[host] else { return failure }
        return PlaybackFailure(.tunersBusy(tuners), failure.detail)
    }
}
