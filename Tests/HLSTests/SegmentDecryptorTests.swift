import Foundation
import Testing
import TestSupport
@testable import ZapperHLS

/// The streaming AES-128-CBC decryptor against NIST SP 800-38A's vectors
/// and against `openssl enc -aes-128-cbc`, cut into chunks at every offset.
struct SegmentDecryptorTests {
    static func hex(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            bytes.append(UInt8(text[index..<next], radix: 16)!)
            index = next
        }
        return bytes
    }

    // NIST SP 800-38A, F.2.1/F.2.2 (CBC-AES128).
    static let nistKey = hex("2b7e151628aed2a6abf7158809cf4f3c")
    static let nistIV = hex("000102030405060708090a0b0c0d0e0f")
    static let nistPlain = hex("6bc1bee22e409f96e93d7e117393172a" + "ae2d8a571e03ac9c9eb76fac45af8e51"
        + "30c81c46a35ce411e5fbc1191a0a52ef" + "f69f2445df4f9b17ad2b417be66c3710")
    static let nistCipher = hex("7649abac8119b246cee98e9b12e9197d" + "5086cb9b507219ee95db113a917678b2"
        + "73bed6b8e3c1743b7116e69e22229516" + "3ff1caa1681fac09120eca307586e1a7")

    /// Feeds `cipher` in the given chunk lengths (the rest in one last chunk), then finishes.
    static func decrypt(_ cipher: [UInt8], key: [UInt8], iv: [UInt8], chunks: [Int]) throws -> [UInt8] {
        var decryptor = try SegmentDecryptor(key: key, iv: iv)
        var plain: [UInt8] = []
        var offset = 0
        for length in chunks where offset < cipher.count {
            let end = min(cipher.count, offset + length)
            plain += try decryptor.update(cipher[offset..<end])
            offset = end
        }
        plain += try decryptor.update(cipher[offset...])
        plain += try decryptor.finish()
        return plain
    }

    /// All but the last block come out before the end, whatever the cuts (NIST's
    /// plaintext has no padding, so finish() must refuse its last block).
    @Test func nistVectorsDecryptAtEveryCut() throws {
        for cut in 0...Self.nistCipher.count {
            var decryptor = try SegmentDecryptor(key: Self.nistKey, iv: Self.nistIV)
            var plain = [UInt8](try decryptor.update(Self.nistCipher[..<cut]))
            plain += try decryptor.update(Self.nistCipher[cut...])
            #expect(plain == Array(Self.nistPlain.prefix(48)), "cut at \(cut)")
            #expect(throws: SegmentDecryptor.Failure.badPadding) { try decryptor.finish() }
        }
    }

    @Test func releasesEveryWholeBlockButTheLastAsBytesArrive() throws {
        var decryptor = try SegmentDecryptor(key: Self.nistKey, iv: Self.nistIV)
        var released: [Int] = []
        for byte in Self.nistCipher { released.append(try decryptor.update([byte]).count) }
        // Blocks 1–3 come out as soon as a byte of the next block is in; block 4 waits.
        let expected = (1...64).map { $0 == 17 || $0 == 33 || $0 == 49 ? 16 : 0 }
        #expect(released == expected)
    }

    /// `openssl enc` output of a plaintext, with its PKCS#7 padding.
    static func openssl(_ plain: [UInt8], key: [UInt8], iv: [UInt8]) throws -> [UInt8] {
        let input = try Tool.temporaryFile(plain, suffix: ".bin")
        defer { try? FileManager.default.removeItem(at: input) }
        func text(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
        let output = try Tool.run("openssl", ["enc", "-aes-128-cbc", "-K", text(key), "-iv", text(iv), "-in", input.path])
        try #require(output.status == 0, "\(output.stderr)")
        return [UInt8](output.stdout)
    }

    static func plaintext(_ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 151 &+ 7) } }

    @Test(arguments: [0, 1, 15, 16, 17, 31, 32, 100])
    func opensslOutputDecryptsAtEveryCut(length: Int) throws {
        let key = Self.hex("000102030405060708090a0b0c0d0e0f")
        let iv = Self.hex("f0e0d0c0b0a090807060504030201000")
        let plain = Self.plaintext(length)
        let cipher = try Self.openssl(plain, key: key, iv: iv)
        #expect(cipher.count == (length / 16 + 1) * 16)
        for first in 0...cipher.count {
            for second in [0, 1, 15, 16, 17] {
                #expect(try Self.decrypt(cipher, key: key, iv: iv, chunks: [first, second]) == plain, "cuts at \(first), +\(second)")
            }
        }
    }

    @Test(arguments: [1, 3, 16, 1000, 4096])
    func aSegmentSizedBodyDecryptsInChunks(chunk: Int) throws {
        let key = Self.hex("8899aabbccddeeff0011223344556677")
        let iv = [UInt8](repeating: 0, count: 15) + [42]  // as for media sequence 42 without an IV attribute
        let plain = Self.plaintext(188 * 700)
        let cipher = try Self.openssl(plain, key: key, iv: iv)
        #expect(try Self.decrypt(cipher, key: key, iv: iv, chunks: Array(repeating: chunk, count: cipher.count / chunk)) == plain)
    }

    @Test func brokenBodiesAndKeysAreRefused() throws {
        let key = Self.hex("000102030405060708090a0b0c0d0e0f")
        let iv = [UInt8](repeating: 7, count: 16)
        let cipher = try Self.openssl(Self.plaintext(40), key: key, iv: iv)
        // Cut short: not a whole number of blocks.
        #expect(throws: SegmentDecryptor.Failure.notWholeBlocks(47)) {
            try Self.decrypt(Array(cipher.dropLast()), key: key, iv: iv, chunks: [])
        }
        #expect(throws: SegmentDecryptor.Failure.notWholeBlocks(0)) { try Self.decrypt([], key: key, iv: iv, chunks: []) }
        // The wrong key: the padding does not check out.
        #expect(throws: SegmentDecryptor.Failure.badPadding) {
            try Self.decrypt(cipher, key: Self.hex("ffeeddccbbaa99887766554433221100"), iv: iv, chunks: [])
        }
        #expect(throws: SegmentDecryptor.Failure.keyLength(15)) { try SegmentDecryptor(key: Array(key.prefix(15)), iv: iv) }
        #expect(throws: SegmentDecryptor.Failure.ivLength(8)) { try SegmentDecryptor(key: key, iv: Array(iv.prefix(8))) }
    }
}
