import CALSA

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
