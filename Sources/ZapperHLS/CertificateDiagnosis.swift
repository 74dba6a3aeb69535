import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import NIOTLS
import ZapperCore

/// Why an https server's certificate was refused. The TLS library says only
/// that verification failed; when it does, a second handshake that verifies
/// nothing fetches the server's certificate and reads its dates, so the card
/// can say "expired" (or "not valid yet") rather than only "not trusted".
enum CertificateDiagnosis {
    /// The certificate problem behind `error`, met while connecting to `url`; nil when
    /// `error` is not a refused certificate.
    static func problem(of error: any Error, url: URL) async -> CertificateProblem? {
        if let extra = error as? NIOSSLExtraError, extra == .failedToValidateHostname { return .wrongHost }
        guard let ssl = error as? NIOSSLError, case .handshakeFailed = ssl,
              url.scheme?.lowercased() == "https", let host = url.host else { return nil }
        guard let dates = try? await certificateDates(host: host, port: url.port ?? 443) else {
            // The server would not finish even an unverified handshake: not a certificate matter.
            return nil
        }
        let now = time(nil)
        if dates.notAfter < now { return .expired }
        if dates.notBefore > now { return .notYetValid }
        return .untrusted
    }

    /// The validity dates of the certificate `host:port` presents, read without trusting it.
    private static func certificateDates(host: String, port: Int) async throws -> (notBefore: time_t, notAfter: time_t) {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateVerification = .none
        let context = try NIOSSLContext(configuration: configuration)
        let group = MultiThreadedEventLoopGroup.singleton
        let promise = group.next().makePromise(of: (notBefore: time_t, notAfter: time_t).self)
        // An IP address is not a server name (SNI) and must not be sent as one.
        let serverName = HostAddresses.isNumeric(host) ? nil : host
        let bootstrap = ClientBootstrap(group: group)
            .connectTimeout(.seconds(5))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let sync = channel.pipeline.syncOperations
                    try sync.addHandler(NIOSSLClientHandler(context: context, serverHostname: serverName))
                    try sync.addHandler(HandshakeWatch(promise: promise))
                }
            }
        let channel: any Channel
        do {
            channel = try await bootstrap.connect(host: host, port: port).get()
        } catch {
            promise.fail(error)
            throw error
        }
        // Bounded: a server that never finishes the handshake gives up after 5 s.
        channel.eventLoop.scheduleTask(in: .seconds(5)) { promise.fail(ChannelError.connectTimeout(.seconds(5))) }
        defer { channel.close(promise: nil) }
        return try await promise.futureResult.get()
    }
}

/// Waits for the TLS handshake, then reads the peer certificate's dates.
private final class HandshakeWatch: ChannelInboundHandler {
    typealias InboundIn = NIOAny
    private let promise: EventLoopPromise<(notBefore: time_t, notAfter: time_t)>

    init(promise: EventLoopPromise<(notBefore: time_t, notAfter: time_t)>) {
        self.promise = promise
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .handshakeCompleted = event as? TLSUserEvent {
            if let handler = try? context.pipeline.syncOperations.handler(type: NIOSSLClientHandler.self),
               let certificate = handler.peerCertificate {
                promise.succeed((certificate.notValidBefore, certificate.notValidAfter))
            } else {
                promise.fail(NIOSSLError.noCertificateToValidate)
            }
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        promise.fail(error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        promise.fail(ChannelError.eof)
        context.fireChannelInactive()
    }
}
