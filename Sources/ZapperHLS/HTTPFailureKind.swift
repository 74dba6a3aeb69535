import AsyncHTTPClient
import NIOCore
import NIOPosix
import ZapperCore

/// What kind of failure an error of the HTTP client (or of SwiftNIO under it) is,
/// by its type and code, never by its words.
enum HTTPFailureKind {
    static func of(_ error: any Error) -> PlaybackFailure.Kind {
        if let client = error as? HTTPClientError {
            switch client {
            case .readTimeout, .writeTimeout, .connectTimeout, .deadlineExceeded, .tlsHandshakeTimeout,
                 .getConnectionFromPoolTimeout, .socksHandshakeTimeout, .httpProxyHandshakeTimeout:
                return .timeout
            case .remoteConnectionClosed, .alreadyShutdown:
                return .unreachable
            case .bodyLengthMismatch:
                return .truncated
            default:
                return .other
            }
        }
        if let channel = error as? ChannelError {
            if case .connectTimeout = channel { return .timeout }
            return [.ioOnClosedChannel, .eof, .alreadyClosed].contains(channel) ? .unreachable : .other
        }
        if error is NIOConnectionError || error is IOError || error is SocketAddressError { return .unreachable }
        return .other
    }

    /// The kind of any error met while fetching: a typed one's own, else `of`.
    static func kind(_ error: any Error) -> PlaybackFailure.Kind {
        (error as? any PlaybackFailureConvertible)?.playbackFailure.kind ?? (error as? PlaybackFailure)?.kind ?? of(error)
    }

    /// Any error met while fetching `url`, as a failure: typed ones keep their kind,
    /// the client's own are classified, and the detail names the URL when the error does not.
    static func failure(_ error: any Error, url: String) -> PlaybackFailure {
        if error is any PlaybackFailureConvertible || error is PlaybackFailure { return PlaybackFailure(error) }
        return PlaybackFailure(of(error), "\(url): \(error)")
    }
}
