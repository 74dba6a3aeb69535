import CDRM
import Glibc

/// A failed system call, with the C library's message.
public struct Errno: Error, Equatable, CustomStringConvertible {
    public let code: Int32
    public let operation: String

    public init(_ code: Int32 = errno, operation: String) {
        self.code = code
        self.operation = operation
    }

    public var description: String { "\(operation): \(String(cString: strerror(code)))" }
}

/// The KMS devices of this machine.
public enum KMSDevices {
    /// `/dev/dri/card*`, in order; empty where there is no DRM driver.
    public static func cardPaths(directory: String = "/dev/dri") -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasPrefix("card") { names.append("\(directory)/\(name)") }
        }
        return names.sorted { $0.count == $1.count ? $0 < $1 : $0.count < $1.count }
    }

    /// Whether libdrm finds a DRM driver in the kernel at all.
    public static var kernelHasDRM: Bool { drmAvailable() == 1 }
}
