import CALSA
import Synchronization

/// A negative ALSA return code, with ALSA's own message.
public struct ALSAError: Error, Equatable, CustomStringConvertible {
    public let code: Int32
    public let operation: String
    /// What ALSA's library said while it failed (its first line: why, in its words), if anything.
    public var libraryReason: String?

    public init(code: Int32, operation: String, libraryReason: String? = nil) {
        self.code = code
        self.operation = operation
        self.libraryReason = libraryReason
    }

    public var message: String { String(cString: snd_strerror(code)) }
    public var description: String { "\(operation): \(message)" + (libraryReason.map { "; ALSA: \($0)" } ?? "") }

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
            // While a device opens, its lines are kept for the error that follows, not said.
            let kept = ALSAErrorRoute.captured.withLock { captured -> Bool in
                guard captured != nil else { return false }
                if captured!.count < 8 { captured!.append(text) }
                return true
            }
            if !kept { ALSAErrorRoute.say.withLock { $0 }?(text) }
        }
    }

    /// Runs `body` with ALSA's lines kept rather than said; a failure it throws carries the first
    /// (one reason is enough), and on success they are said after all.
    @discardableResult
    static func capturingLines<T>(_ body: () throws -> T) throws -> T {
        ALSAErrorRoute.captured.withLock { $0 = [] }
        do {
            let value = try body()
            let lines = ALSAErrorRoute.captured.withLock { captured in defer { captured = nil }; return captured ?? [] }
            if let say = ALSAErrorRoute.say.withLock({ $0 }) { lines.forEach(say) }
            return value
        } catch var error as ALSAError {
            error.libraryReason = ALSAErrorRoute.captured.withLock { captured in defer { captured = nil }; return captured?.first }
            throw error
        } catch {
            ALSAErrorRoute.captured.withLock { $0 = nil }
            throw error
        }
    }
}

enum ALSAErrorRoute {
    static let say = Mutex<(@Sendable (String) -> Void)?>(nil)
    /// Lines kept while a device opens (one thread opens devices: the audio thread).
    static let captured = Mutex<[String]?>(nil)
}
