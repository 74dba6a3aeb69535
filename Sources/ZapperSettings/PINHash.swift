import Crypto
import Foundation
import ZapperCore

/// The parental PIN as the configuration stores it:
/// `sha256:<iterations>:<salt hex>:<hash hex>`, an iterated, salted SHA-256.
///
/// Honestly: a 4-digit PIN has 10,000 values, so anyone who can read the
/// configuration file can try them all whatever the hash; the salt and the
/// iterations only stop the PIN from being read off at a glance or looked up
/// in a table. What really protects it is the file's permissions and the
/// gate's lockouts on the remote. For the same reason the default iteration
/// count is modest: verifying runs when the last digit is typed and must
/// not keep the card waiting.
public enum PINHash {
    public static let defaultIterations = 10_000
    /// A stored hash asking for more than this is refused, so a bad file cannot hang the box.
    public static let maximumIterations = 5_000_000

    public static func hash(pin: String, iterations: Int = defaultIterations) -> String {
        var generator = SystemRandomNumberGenerator()
        let salt = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return hash(pin: pin, salt: salt, iterations: iterations)
    }

    static func hash(pin: String, salt: [UInt8], iterations: Int) -> String {
        let digest = derive(pin: pin, salt: salt, iterations: iterations)
        return "sha256:\(iterations):\(hex(salt)):\(hex(digest))"
    }

    /// Whether `pin` is the PIN `stored` was made from. A malformed `stored` verifies nothing.
    public static func verify(pin: String, against stored: String) -> Bool {
        guard let parts = parse(stored) else { return false }
        let digest = derive(pin: pin, salt: parts.salt, iterations: parts.iterations)
        guard digest.count == parts.digest.count else { return false }
        return zip(digest, parts.digest).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0  // no early exit
    }

    /// Whether `stored` has the shape `hash(pin:)` writes.
    public static func isWellFormed(_ stored: String) -> Bool { parse(stored) != nil }

    static func parse(_ stored: String) -> (iterations: Int, salt: [UInt8], digest: [UInt8])? {
        let fields = stored.split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count == 4, fields[0] == "sha256", let iterations = Int(fields[1]),
              (1...maximumIterations).contains(iterations),
              let salt = Hex.bytes(fields[2]), (1...64).contains(salt.count),
              let digest = Hex.bytes(fields[3]), digest.count == SHA256.byteCount else { return nil }
        return (iterations, salt, digest)
    }

    /// h₁ = SHA-256(salt ‖ pin), hₙ = SHA-256(hₙ₋₁ ‖ salt ‖ pin).
    static func derive(pin: String, salt: [UInt8], iterations: Int) -> [UInt8] {
        let tail = salt + Array(pin.utf8)
        var digest = Array(SHA256.hash(data: tail))
        for _ in 1..<max(1, iterations) {
            var hasher = SHA256()
            hasher.update(data: digest)
            hasher.update(data: tail)
            digest = Array(hasher.finalize())
        }
        return digest
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }
}
