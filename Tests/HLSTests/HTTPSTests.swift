import Foundation
import OriginKit
import Testing
import TestSupport
import ZapperCore
import ZapperHLS

/// https against servers on loopback with certificates of a CA the test makes:
/// a good one is fetched with the CA in `ca-file`; each bad one fails with its
/// own problem, which the card says in words.
@Suite struct HTTPSTests {
    static let certificates = Result { try TestCertificates.make() }

    /// Fetches `/hello` from a server presenting `pair`, with a fetcher that trusts `trust`.
    /// At high priority: the test process queues hundreds of synchronous tests on Swift's two
    /// cooperative threads at the start of a run (all at the default priority), and the fetch's
    /// 20 s whole-body deadline is wall-clock time; queued behind them, a CI run's fetch once
    /// took 48 s. The box has no such backlog (its frame loop has a thread of its own).
    func fetch(_ pair: TestCertificates.Pair, trust: TLSTrust) async throws -> Result<String, HTTPFetcher.Failure> {
        try await Task(priority: .high) { try await fetchNow(pair, trust: trust) }.value
    }

    private func fetchNow(_ pair: TestCertificates.Pair, trust: TLSTrust) async throws -> Result<String, HTTPFetcher.Failure> {
        let server = try await OriginHTTPServer.start(port: 0, responder: { _ in
            { _ in OriginReply(status: 200, body: Data("hello over TLS\n".utf8)) }
        }, tls: OriginTLS(certificateFile: pair.certificate, keyFile: pair.key))
        let fetcher = HTTPFetcher(trust: trust)
        let result: Result<String, HTTPFetcher.Failure>
        do {
            result = .success(try await fetcher.text(URL(string: "https://127.0.0.1:\(server.port)/hello")!))
        } catch let failure as HTTPFetcher.Failure {
            result = .failure(failure)
        }
        await fetcher.shutdown()
        await server.shutdown()
        return result
    }

    @Test func aCertificateOfTheTrustedCAIsFetched() async throws {
        let made = try Self.certificates.get()
        let text = try await fetch(made.good, trust: TLSTrust(caFile: made.caFile)).get()
        #expect(text == "hello over TLS\n")
    }

    @Test(arguments: CertificateProblem.allCases)
    func aBadCertificateFailsWithItsProblem(_ problem: CertificateProblem) async throws {
        let made = try Self.certificates.get()
        let pair = switch problem {
        case .wrongHost: made.wrongHost
        case .expired: made.expired
        case .notYetValid: made.notYetValid
        case .untrusted: made.untrusted
        }
        let result = try await fetch(pair, trust: TLSTrust(caFile: made.caFile))
        guard case .failure(let failure) = result else {
            Issue.record("\(problem): fetched")
            return
        }
        #expect(failure.kind == .certificate(problem), "\(failure)")
        #expect(failure.playbackFailure.words == problem.words)
    }

    /// Without the private CA in `ca-file`, the system's store does not know it.
    @Test func thePrivateCAIsTrustedOnlyWhenNamed() async throws {
        let made = try Self.certificates.get()
        let result = try await fetch(made.good, trust: .system)
        guard case .failure(let failure) = result else {
            Issue.record("fetched without the CA")
            return
        }
        #expect(failure.kind == .certificate(.untrusted), "\(failure)")
        #expect(failure.playbackFailure.name == "certificate-untrusted")
    }

    @Test func aCAFileThatCannotBeUsedIsToldAtStartWithItsName() throws {
        #expect(throws: TLSTrust.Problem.self) { try TLSTrust(caFile: "/nonexistent/ca.pem").checked() }
        let notPEM = try Tool.temporaryFile(Array("not a certificate\n".utf8), suffix: ".pem")
        defer { try? FileManager.default.removeItem(at: notPEM) }
        do {
            _ = try TLSTrust(caFile: notPEM.path).checked()
            Issue.record("accepted a file with no certificate")
        } catch {
            #expect(error.description.hasPrefix(notPEM.path))
        }
        let made = try Self.certificates.get()
        #expect(try TLSTrust(caFile: made.caFile).checked() == TLSTrust(caFile: made.caFile))
    }
}
