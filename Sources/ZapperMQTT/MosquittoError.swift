import CMosquitto
import Glibc

/// A libmosquitto call that failed: which, its code, and the library's words for it
/// (`mosquitto_strerror`).
public struct MosquittoError: Error, Sendable, Equatable, CustomStringConvertible {
    public let call: String
    public let code: Int32
    public let message: String

    init(_ call: String, code: Int32) {
        self.call = call
        self.code = code
        let words = MosquittoLibrary.words(code)
        message = words.hasSuffix(".") ? String(words.dropLast()) : words
    }

    public var description: String { "\(call): \(message)" }

    /// Throws when `code` is not MOSQ_ERR_SUCCESS.
    static func check(_ call: String, _ code: Int32) throws(MosquittoError) {
        if code != Int32(MOSQ_ERR_SUCCESS.rawValue) { throw MosquittoError(call, code: code) }
    }
}

enum MosquittoLibrary {
    /// mosquitto_lib_init, once per process, before the first client (it is not thread-safe).
    static let initialised: Bool = mosquitto_lib_init() == Int32(MOSQ_ERR_SUCCESS.rawValue)

    /// The library's words for an error code (errno's for MOSQ_ERR_ERRNO).
    static func words(_ code: Int32) -> String {
        if code == Int32(MOSQ_ERR_ERRNO.rawValue) {
            let number = errno
            return String(cString: strerror(number))
        }
        // libmosquitto 2.0.11 has no words for its keepalive timeout.
        if code == Int32(MOSQ_ERR_KEEPALIVE.rawValue) { return "the broker did not answer in time" }
        return String(cString: mosquitto_strerror(code))
    }

    /// The broker's answer to CONNECT, in words (`mosquitto_connack_string`).
    static func connackWords(_ code: Int32) -> String { String(cString: mosquitto_connack_string(code)) }
}
