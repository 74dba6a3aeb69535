import Foundation

extension OriginRouter {
    /// `/moved/…`: redirects, as CDNs and session-token services send them.
    /// - `/moved/N.m3u8`: 302 to `/ch/N/master.m3u8` (a path-only Location). The
    ///   master's variant URIs are relative, so they resolve only against the
    ///   URL that answered, never against `/moved/`.
    /// - `/moved/hops/K`: K more hops (each 301, 302, 307 or 308) to `/ch/2/master.m3u8`.
    /// - `/moved/loop`: to itself. `/moved/file`: to a `file:` URL. `/moved/none`: no Location.
    /// - `/moved/insecure/N.m3u8`: 302 to channel N's master on the plain http listener
    ///   (`plainHost`): from the https listener, a downgrade a client must refuse.
    func moved(_ path: [String], plainHost: String) -> OriginReply {
        func redirect(_ status: Int, _ location: String?) -> OriginReply {
            var reply = OriginReply.text(status, "moved")
            reply.location = location
            return reply
        }
        switch path {
        case ["loop"]: return redirect(302, "/moved/loop")
        case ["file"]: return redirect(302, "file:///etc/passwd")
        case ["none"]: return redirect(302, nil)
        default: break
        }
        if path.count == 2, path[0] == "hops", let hops = Int(path[1]), (0...100).contains(hops) {
            let statuses = [301, 302, 307, 308]
            return redirect(statuses[hops % statuses.count], hops == 0 ? "/ch/2/master.m3u8" : "/moved/hops/\(hops - 1)")
        }
        let last = path.last ?? ""
        if last.hasSuffix(".m3u8"), let number = Int(last.dropLast(5)), catalog.channel(number: number) != nil {
            if path.count == 1 { return redirect(302, "/ch/\(number)/master.m3u8") }
            if path.count == 2, path[0] == "insecure" { return redirect(302, "http://\(plainHost)/ch/\(number)/master.m3u8") }
        }
        return .text(404, "not found: /moved/\(path.joined(separator: "/"))")
    }
}
