import _CryptoExtras
import Foundation

/// Decrypts an AES-128-CBC segment (EXT-X-KEY METHOD=AES-128) as its body
/// streams in, so the demuxer starts on the first bytes and nothing waits
/// for the whole segment. Each call decrypts the whole blocks that arrived,
/// chaining the IV from the last ciphertext block; the final block is held
/// back until `finish()`, which strips its PKCS#7 padding.
public struct SegmentDecryptor: Sendable {
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The key is not 16 bytes.
        case keyLength(Int)
        /// The IV is not 16 bytes.
        case ivLength(Int)
        /// The body's length is not a positive multiple of 16 bytes.
        case notWholeBlocks(Int)
        /// The last block does not end in valid PKCS#7 padding (usually a wrong key or IV).
        case badPadding

        public var description: String {
            switch self {
            case .keyLength(let count): "the AES-128 key is \(count) bytes, not 16"
            case .ivLength(let count): "the IV is \(count) bytes, not 16"
            case .notWholeBlocks(let count): "the encrypted body is \(count) bytes, not a whole number of 16-byte blocks"
            case .badPadding: "the decrypted body does not end in valid PKCS#7 padding (wrong key or IV?)"
            }
        }
    }

    static let blockSize = 16

    private let key: SymmetricKey
    private var iv: [UInt8]
    /// Ciphertext not yet decrypted: the held-back last block, or a partial block.
    private var pending: [UInt8] = []
    private var total = 0

    public init(key: [UInt8], iv: [UInt8]) throws(Failure) {
        guard key.count == Self.blockSize else { throw .keyLength(key.count) }
        guard iv.count == Self.blockSize else { throw .ivLength(iv.count) }
        self.key = SymmetricKey(data: key)
        self.iv = iv
    }

    /// Takes the next ciphertext bytes; returns the plaintext that can be
    /// released now (all but the last whole block seen so far).
    public mutating func update<Bytes: Collection<UInt8>>(_ bytes: Bytes) throws(Failure) -> Data {
        total += bytes.count
        pending.append(contentsOf: bytes)
        guard !pending.isEmpty else { return Data() }
        // Keep at least one byte, up to one whole block, for the next call or finish().
        let release = (pending.count - 1) / Self.blockSize * Self.blockSize
        guard release > 0 else { return Data() }
        let plain = try decrypt(pending[..<release], padded: false)
        iv = Array(pending[(release - Self.blockSize)..<release])
        pending.removeFirst(release)
        return plain
    }

    /// The body ended: decrypts the held-back block and strips the padding.
    public mutating func finish() throws(Failure) -> Data {
        guard total > 0, total % Self.blockSize == 0, pending.count == Self.blockSize else {
            throw .notWholeBlocks(total)
        }
        let plain = try decrypt(pending[...], padded: true)
        pending.removeAll()
        return plain
    }

    private func decrypt(_ ciphertext: ArraySlice<UInt8>, padded: Bool) throws(Failure) -> Data {
        do {
            return try AES._CBC.decrypt(ciphertext, using: key, iv: AES._CBC.IV(ivBytes: iv), noPadding: !padded)
        } catch {
            // Whole blocks and a 16-byte key and IV are checked above, so only the padding is left.
            throw .badPadding
        }
    }
}
