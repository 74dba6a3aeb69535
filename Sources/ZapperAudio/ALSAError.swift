import CALSA
import Synchronization

/// A negative ALSA return code, with ALSA's own message.
public struct ALSAError: Error, Equatable, CustomStringConvertible {
    public let code: Int32
    public let operation: String

    public init(code: Int32, operation: String) {
        self.code = code
        self.operation = operation
    }

    public var message: String { String(cString: snd_strerror(code)) }
    public var description: String { "\(operation): \(message)" }

    @discardableResult
    public static func check(_ code: Int32, _ operation: @autoclosure () -> String) throws -> Int32 {
        guard code >= 0 else { throw ALSAError(code: code, operation: operation()) }
        return code
    }
}

public enum ALSALibrary {
    /// e.g. "1.2.8".
    public static var version: String { String(cString: snd_asoundlib_version()) }
}

extension ALSALibrary {
    /// Sends ALSA's own error text (which it would print to stderr) to `say`
    /// instead, a line at a time. Call once, before opening a device.
    public static func routeErrors(to say: @escaping @Sendable (String) -> Void) {
        ALSAErrorRoute.say.withLock { $0 = say }
        zapper_alsa_route_errors { message in
            guard let message else { return }
            let text = String(cString: message)
            ALSAErrorRoute.say.withLock { $0 }?(text)
        }
    }
}

enum ALSAErrorRoute {
    static let say = Mutex<(@Sendable (String) -> Void)?>(nil)
}
