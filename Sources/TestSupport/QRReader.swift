import Foundation

/// A real QR reader for the tests: zbarimg (Debian's zbar-tools, which `make test` installs).
public enum QRReader {
    /// What zbarimg reads in the picture at `file`: exit status 0 and the code's text, or 4 when
    /// it found no code.
    public static func scan(_ file: URL) throws -> (status: Int32, text: String) {
        let run = try Tool.run("zbarimg", ["--raw", "-q", "-Sdisable", "-Sqrcode.enable", file.path])
        return (run.status, String(decoding: run.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
