import Foundation
import ZapperCore

/// A `ByteLoader` that keeps each good fetch on disk (one file per URL, written
/// atomically) and hands the copy back when the URL cannot be fetched: channel
/// logos on a box that starts with its network down. The folder is bounded by
/// `keptBytes`: past it the files least recently written go, down to three quarters of it.
public final class KeptByteLoader: ByteLoader, @unchecked Sendable {
    private let inner: any ByteLoader
    public let directory: URL
    public let keptBytes: Int
    private let lock = NSLock()
    /// The folder's bytes, counted once on the first write and kept up to date after.
    private var folderBytes: Int?

    public init(_ inner: any ByteLoader, directory: URL, keptBytes: Int = 32 << 20) {
        self.inner = inner
        self.directory = directory
        self.keptBytes = keptBytes
    }

    public func bytes(_ url: URL, limit: Int) async throws -> [UInt8] {
        let bytes = try await inner.bytes(url, limit: limit)
        keep(bytes, for: url)
        return bytes
    }

    public func keptCopy(of url: URL, limit: Int) -> [UInt8]? {
        let file = self.file(for: url)
        guard let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.intValue,
              size <= limit, let data = try? Data(contentsOf: file) else { return nil }
        return [UInt8](data)
    }

    /// The file of `url`: a 64-bit FNV-1a hash of its text, in hex.
    func file(for url: URL) -> URL {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in url.absoluteString.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return directory.appendingPathComponent(String(hash, radix: 16) + ".kept")
    }

    /// Writes the copy (a failure to write only loses the copy) and trims the folder to `keptBytes`.
    private func keep(_ bytes: [UInt8], for url: URL) {
        let file = self.file(for: url)
        lock.withLock {
            let manager = FileManager.default
            try? manager.createDirectory(at: directory, withIntermediateDirectories: true)
            var total = folderBytes ?? Self.files(in: directory).reduce(0) { $0 + $1.size }
            total -= Self.size(of: file)
            guard (try? Data(bytes).write(to: file, options: .atomic)) != nil else {
                folderBytes = total
                return
            }
            total += bytes.count
            if total > keptBytes {
                // Down to three quarters, so the folder is listed once per many writes, not at each.
                let low = keptBytes / 4 * 3
                for old in Self.files(in: directory).sorted(by: { $0.written < $1.written }) where total > low && old.url != file {
                    if (try? manager.removeItem(at: old.url)) != nil { total -= old.size }
                }
            }
            folderBytes = total
        }
    }

    private static func size(of file: URL) -> Int {
        (try? file.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0
    }

    private static func files(in directory: URL) -> [(url: URL, size: Int, written: Date)] {
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey]
        let urls = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: keys)) ?? []
        return urls.filter { $0.pathExtension == "kept" }.map { url in
            let values = try? url.resourceValues(forKeys: Set(keys))
            return (url, values?.fileSize ?? 0, values?.contentModificationDate ?? .distantPast)
        }
    }
}
