import CQREncode
import Glibc

/// A QR code's modules, made by libqrencode (8-bit mode, error correction M: a phone reads it
/// off a TV across a room). Copied out of libqrencode's symbol, which is freed at once.
struct QRSymbol: Equatable {
    /// Modules per side.
    let size: Int
    /// Row by row, `size * size`: true where a module is dark.
    let dark: [Bool]

    /// The longest text encoded: a link with a token is far shorter; a QR code holds at most
    /// 2,331 bytes at level M, and past a few hundred a phone's camera struggles across a room.
    static let maxBytes = 512

    /// nil for an empty or too long text, or when libqrencode refuses it.
    init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= Self.maxBytes else { return nil }
        guard let symbol = QRcode_encodeString8bit(text, 0, QR_ECLEVEL_M) else { return nil }
        defer { QRcode_free(symbol) }
        let width = Int(symbol.pointee.width)
        guard width > 0, width <= 177, let data = symbol.pointee.data else { return nil }
        size = width
        // Bit 0 of each byte is the module's colour (libqrencode's other bits say what it is part of).
        dark = (0..<(width * width)).map { data[$0] & 1 == 1 }
    }
}
