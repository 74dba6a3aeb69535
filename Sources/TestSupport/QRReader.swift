import Foundation

/// A real QR reader for the tests: zbarimg (Debian's zbar-tools, which `make test` installs).
public enum QRReader {
    /// What zbarimg reads in the picture at `file`: exit status 0 and the code's text, or 4 when
    /// it found no code.
    public static func scan(_ file: URL) throws -> (status: Int32, text: String) {
        let zbarimg = Process()
        zbarimg.executableURL = URL(fileURLWithPath: "/usr/bin/zbarimg")
        zbarimg.arguments = ["--raw", "-q", "-Sdisable", "-Sqrcode.enable", file.path]
        let output = Pipe()
        zbarimg.standardOutput = output
        zbarimg.standardError = FileHandle.nullDevice
        try zbarimg.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        zbarimg.waitUntilExit()
        return (zbarimg.terminationStatus, text.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
