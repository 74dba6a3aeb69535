import Foundation

/// A private certificate authority made by a test with the `openssl` tool, and
/// server certificates for 127.0.0.1 in each shape a client must tell apart:
/// good, made out for another name, expired, not valid yet, and signed by an
/// authority nobody trusts.
public struct TestCertificates: Sendable {
    /// A certificate file and its key file (PEM).
    public struct Pair: Sendable {
        public var certificate: String
        public var key: String
    }

    public let directory: URL
    /// The authority's certificate: the `ca-file` a client trusts.
    public var caFile: String { directory.appendingPathComponent("ca.pem").path }
    public var good: Pair { pair("good") }
    public var wrongHost: Pair { pair("wrong-host") }
    public var expired: Pair { pair("expired") }
    public var notYetValid: Pair { pair("not-yet-valid") }
    public var untrusted: Pair { pair("untrusted") }

    private func pair(_ name: String) -> Pair {
        Pair(certificate: directory.appendingPathComponent("\(name).pem").path,
             key: directory.appendingPathComponent("\(name).key").path)
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Makes them all in a new temporary folder (EC P-256 keys: quick).
    public static func make() throws -> TestCertificates {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("zapper-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let made = TestCertificates(directory: directory)
        try made.authority("ca", subject: "Zapper Test CA")
        try made.authority("other-ca", subject: "Nobody's CA")
        try made.server("good", names: "IP:127.0.0.1,DNS:localhost", signer: "ca")
        try made.server("wrong-host", names: "DNS:other.example", signer: "ca")
        try made.server("expired", names: "IP:127.0.0.1", signer: "ca", dates: ("20200101000000Z", "20200201000000Z"))
        try made.server("not-yet-valid", names: "IP:127.0.0.1", signer: "ca", dates: ("20991201000000Z", "20991231000000Z"))
        try made.server("untrusted", names: "IP:127.0.0.1", signer: "other-ca")
        return made
    }

    private func path(_ file: String) -> String { directory.appendingPathComponent(file).path }

    private func openssl(_ arguments: [String]) throws {
        let output = try Tool.run("openssl", arguments)
        guard output.status == 0 else {
            throw Failure(description: "openssl \(arguments.joined(separator: " ")) failed: \(output.stderr)")
        }
    }

    private func authority(_ name: String, subject: String) throws {
        try openssl(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                     "-keyout", path("\(name).key"), "-out", path("\(name).pem"), "-days", "30", "-subj", "/CN=\(subject)",
                     "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"])
    }

    /// A server certificate signed by `signer` with `openssl ca`, which can set any dates.
    private func server(_ name: String, names: String, signer: String, dates: (String, String)? = nil) throws {
        try openssl(["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                     "-keyout", path("\(name).key"), "-out", path("\(name).csr"), "-subj", "/CN=\(name)"])
        let database = path("\(name).index")
        FileManager.default.createFile(atPath: database, contents: nil)
        let configuration = """
            [ca]
            default_ca = signer
            [signer]
            database = \(database)
            new_certs_dir = \(directory.path)
            serial = \(path("\(name).serial"))
            default_md = sha256
            policy = anything
            unique_subject = no
            [anything]
            commonName = supplied
            [server]
            subjectAltName = \(names)
            basicConstraints = CA:FALSE
            extendedKeyUsage = serverAuth
            """
        try Data(configuration.utf8).write(to: URL(fileURLWithPath: path("\(name).cnf")))
        try Data("01\n".utf8).write(to: URL(fileURLWithPath: path("\(name).serial")))
        let (start, end) = dates ?? (Self.stamp(Date().addingTimeInterval(-86_400)), Self.stamp(Date().addingTimeInterval(30 * 86_400)))
        try openssl(["ca", "-batch", "-notext", "-config", path("\(name).cnf"), "-extensions", "server",
                     "-cert", path("\(signer).pem"), "-keyfile", path("\(signer).key"),
                     "-startdate", start, "-enddate", end, "-in", path("\(name).csr"), "-out", path("\(name).pem")])
    }

    /// A time as `openssl ca` takes it: YYYYMMDDHHMMSSZ in UTC.
    private static func stamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMddHHmmss'Z'"
        return formatter.string(from: date)
    }
}
