import _CryptoExtras
import Foundation

/// The origin's AES-128 demo (EXT-X-KEY METHOD=AES-128): every channel is
/// also offered encrypted under `/ch/N/aes/master.m3u8`. Segments are
/// encrypted as they are served (AES-128-CBC, PKCS#7), from the same cached
/// loop. The key changes every `segmentsPerKey` segments; even key periods
/// give an explicit IV in the playlist, odd ones leave it out, so the IV is
/// the segment's media sequence number (RFC 8216 §5.2). Keys are derived
/// from the channel and the period, the same across restarts: a demo, not
/// protection.
public enum SegmentEncryption {
    public static let segmentsPerKey: Int64 = 3
    public static let pathPrefix = "aes"

    public static func period(of sequence: Int64) -> Int64 {
        sequence >= 0 ? sequence / segmentsPerKey : -((-sequence + segmentsPerKey - 1) / segmentsPerKey)
    }

    public static func startsPeriod(_ sequence: Int64) -> Bool {
        period(of: sequence) * segmentsPerKey == sequence
    }

    public static func key(channel: Int, period: Int64) -> [UInt8] {
        mixed(UInt64(channel) << 48 ^ UInt64(bitPattern: period), count: 16)
    }

    /// The explicit IV of a period, or nil when the playlist leaves it out.
    public static func explicitIV(channel: Int, period: Int64) -> [UInt8]? {
        period % 2 == 0 ? mixed(~(UInt64(channel) << 48 ^ UInt64(bitPattern: period)), count: 16) : nil
    }

    public static func iv(channel: Int, sequence: Int64) -> [UInt8] {
        explicitIV(channel: channel, period: period(of: sequence))
            ?? Array(repeating: 0, count: 8) + withUnsafeBytes(of: UInt64(bitPattern: sequence).bigEndian, Array.init)
    }

    /// The key's path below `/ch/N/aes/`, and as a playlist in a rendition folder refers to it.
    public static func keyFile(period: Int64) -> String { "\(period).key" }

    /// The EXT-X-KEY line that applies from `sequence` on.
    public static func keyTag(channel: Int, sequence: Int64) -> String {
        let period = period(of: sequence)
        var line = "#EXT-X-KEY:METHOD=AES-128,URI=\"../key/\(keyFile(period: period))\""
        if let iv = explicitIV(channel: channel, period: period) {
            line += ",IV=0x" + iv.map { String(format: "%02X", $0) }.joined()
        }
        return line
    }

    public static func encrypt(_ segment: Data, channel: Int, sequence: Int64) throws -> Data {
        try AES._CBC.encrypt(segment, using: SymmetricKey(data: key(channel: channel, period: period(of: sequence))),
                             iv: AES._CBC.IV(ivBytes: iv(channel: channel, sequence: sequence)))
    }

    /// SplitMix64 output bytes: well spread, reproducible.
    static func mixed(_ seed: UInt64, count: Int) -> [UInt8] {
        var state = seed
        var bytes: [UInt8] = []
        while bytes.count < count {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            bytes += withUnsafeBytes(of: z.bigEndian, Array.init)
        }
        return Array(bytes.prefix(count))
    }
}
