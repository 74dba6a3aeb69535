import NIOSSL

/// Which https servers are believed: those whose certificate chains to the
/// system's trust store (Debian's `ca-certificates`), or to a private
/// authority's certificate in a PEM file (`[network] ca-file`).
public struct TLSTrust: Sendable, Equatable {
    /// A PEM file of certificate authorities trusted besides the system's.
    public var caFile: String?

    public static let system = TLSTrust(caFile: nil)

    public init(caFile: String?) {
        self.caFile = caFile
    }

    /// A CA file that cannot be used, and why (names the file).
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        public var file: String
        public var reason: String
        public var description: String { "\(file): \(reason)" }
    }

    /// Reads the CA file once, so a wrong path or a file with no certificate is told at
    /// start instead of failing every https channel later.
    public func checked() throws(Problem) -> TLSTrust {
        guard let caFile else { return self }
        let certificates: [NIOSSLCertificate]
        do {
            certificates = try NIOSSLCertificate.fromPEMFile(caFile)
        } catch {
            throw Problem(file: caFile, reason: "not a readable PEM file of certificates (\(error))")
        }
        guard !certificates.isEmpty else { throw Problem(file: caFile, reason: "holds no certificate") }
        return self
    }

    /// The client's TLS settings: certificates verified, host names checked.
    var configuration: TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateVerification = .fullVerification
        if let caFile { configuration.additionalTrustRoots = [.file(caFile)] }
        return configuration
    }
}
