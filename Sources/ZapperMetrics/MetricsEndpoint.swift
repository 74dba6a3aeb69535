import Foundation
import ZapperCore

/// `GET /metrics`: the player's metrics in Prometheus's text format, the values that are read
/// rather than counted (uptime, memory, CPU, the guide's age) refreshed at each scrape.
public enum MetricsEndpoint {
    /// Prometheus's text exposition format, version 0.0.4.
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// Adds `GET /metrics` to `routes`. `started`: the monotonic clock's seconds at start;
    /// `monotonic` reads it now; `allocator` what the allocator holds (nil: not jemalloc);
    /// `guideLoadedAt` tells when the guide was last loaded.
    public static func add(to routes: inout FleetRoutes, metrics: PlayerMetrics, started: Double,
                           monotonic: @escaping @Sendable () -> Double, allocator: @escaping @Sendable () -> AllocatorSample? = { nil },
                           guideLoadedAt: @escaping @Sendable () -> Date?) {
        routes.add("GET", "/metrics") { _, answer in
            metrics.refresh(uptimeSeconds: monotonic() - started, process: ProcessSample.current(), allocator: allocator(),
                            guideAgeSeconds: guideLoadedAt().map { Date().timeIntervalSince($0) })
            answer(FleetReply(status: 200, contentType: contentType, body: Array(metrics.exposition().utf8)))
        }
    }
}
