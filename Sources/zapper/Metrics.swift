import ZapperCore
import ZapperMetrics
import ZapperPlayer

extension Zapper {
    /// The metrics, counted from the player's events and served at GET /metrics on `address`.
    /// An address that cannot be bound is said, and the box plays on without them.
    /// With a token, the HTTP API (`RemoteAPI`) is served there too.
    /// `channels`: the list the phone's remote page offers; `hosts`: the `Host` names answered.
    func serveMetrics(_ metrics: PlayerMetrics, player: Player, on address: ListenAddress?, token: String?, hosts: HostRule, launched: Double,
                      channels: [LineupChannel]) -> FleetHTTPServer? {
        guard let address else { return nil }
        player.log.observe { event, _ in metrics.record(event) }
        var routes = FleetRoutes()
        let clock = SystemClock()
        MetricsEndpoint.add(to: &routes, metrics: metrics, started: launched, monotonic: { clock.monotonic }, allocator: Allocator.sample,
                            guideLoadedAt: player.guideLoadedAt)
        if let token {
            RemoteAPI.add(to: &routes, token: token, hooks: RemoteAPI.Hooks(
                send: player.remoteSink, status: player.statusReader, reload: { Player.requestReload() }, say: { say($0) },
                channels: channels))
        }
        do {
            let server = try FleetHTTPServer.start(address, routes: routes, hosts: hosts)
            say("metrics: http://\(ListenAddress(host: address.host, port: server.port))/metrics")
            return server
        } catch {
            say("metrics: cannot listen on \(address) (\(error)); no metrics are served")
            return nil
        }
    }
}
