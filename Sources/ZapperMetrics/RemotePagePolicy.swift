import Crypto
import Foundation

/// The remote page's `Content-Security-Policy`: nothing but its own inline style and script
/// (by their SHA-256), calls to the box itself, the screenshot's blob and the channels' logos
/// from the hosts the lineup names (any http/https host only beyond `mostLogoOrigins`); no
/// frame may hold it, no form may post elsewhere, no base may move it.
extension RemotePage {
    static let mostLogoOrigins = 32

    static func securityPolicy(logos: [URL]) -> String {
        let origins = Set(logos.compactMap(origin))
        let images = origins.count > mostLogoOrigins ? ["http:", "https:"] : origins.sorted()
        return ["default-src 'none'",
                "script-src \(hash(between: "<script>", and: "</script>"))",
                "style-src \(hash(between: "<style>", and: "</style>"))",
                (["img-src 'self' blob:"] + images).joined(separator: " "),
                "connect-src 'self'", "form-action 'none'", "base-uri 'none'", FleetReply.framesNone].joined(separator: "; ")
    }

    /// `'sha256-…'` of the page's text between `open` and `close` (as a browser hashes an inline element).
    static func hash(between open: String, and close: String) -> String {
        guard let start = html.range(of: open)?.upperBound, let end = html.range(of: close, range: start..<html.endIndex)?.lowerBound else {
            return "'none'"
        }
        return "'sha256-\(Data(SHA256.hash(data: Data(html[start..<end].utf8))).base64EncodedString())'"
    }

    /// `scheme://host[:port]` of an http(s) logo, as a CSP source (nil: none it may load).
    static func origin(_ url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", let host = url.host?.lowercased(),
              !host.isEmpty, host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-.:[]".contains($0)) }) else { return nil }
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return "\(scheme)://\(bracketed)" + (url.port.map { ":\($0)" } ?? "")
    }
}
