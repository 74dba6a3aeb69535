#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import ZapperCore

/// Where `ZapperState` lives, and how it is read and written so that a power
/// cut at any moment leaves either the old state or the new one, never a torn
/// or empty file.
///
/// `save` writes a temporary file in the same directory, writes it whole,
/// fsyncs it, renames it over `state.json` (atomic on POSIX file systems) and
/// fsyncs the directory so the rename itself survives. One save costs two
/// fsyncs: fine a few times a second, which is what the player coalesces to.
/// One process saves at a time (the player's single state writer).
public struct StateStore: Sendable {
    public static let fileName = "state.json"
    /// The largest state file read: a full state (`ZapperState`'s bounds) is well under it.
    public static let maxBytes = 4 << 20
    static let temporaryName = ".state.json.tmp"

    /// The system-wide state directory, used when it is writable.
    public static let systemDirectory = "/var/lib/zapper"

    public let directory: URL
    public var file: URL { directory.appendingPathComponent(Self.fileName) }
    var temporaryFile: URL { directory.appendingPathComponent(Self.temporaryName) }

    /// The steps of `save`, for tests that check what is on disk between them.
    public enum SaveStep: Sendable, Equatable {
        case wroteTemporary, syncedTemporary, renamed, syncedDirectory
    }
    var afterStep: (@Sendable (SaveStep) -> Void)?

    /// A store in `directory`, created (mode 0700) when missing.
    public init(directory: URL) throws(StateStoreError) {
        self.directory = directory
        try Self.makeDirectory(directory.path)
    }

    /// The state directory: `flag` (`--state-dir`) when given; else
    /// `/var/lib/zapper` when it is, or can be made, writable; else
    /// `$XDG_STATE_HOME/zapper`, else `~/.local/state/zapper`.
    public static func directory(flag: String?, systemDirectory: String = systemDirectory,
                                 environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let flag { return URL(fileURLWithPath: flag) }
        if (try? makeDirectory(systemDirectory)) != nil, access(systemDirectory, W_OK) == 0 {
            return URL(fileURLWithPath: systemDirectory)
        }
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("zapper")
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".local/state/zapper")
    }

    static func makeDirectory(_ path: String) throws(StateStoreError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            if isDirectory.boolValue { return }
            throw StateStoreError(path: path, message: "is not a directory")
        }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw StateStoreError(path: path, message: "cannot be created (\((error as NSError).localizedDescription))")
        }
    }

    /// What `load` found.
    public struct Loaded: Sendable, Equatable {
        public var state: ZapperState
        /// One line for the log when the file was bad or unreadable; `nil` when
        /// it loaded or did not exist yet (the first start).
        public var message: String?
    }

    /// The saved state, or the defaults. A file that is empty, torn or not
    /// state is moved aside to `state.json.bad-<UTC time>` (so it can be looked
    /// at, and is not read again) and the defaults come back. Never throws.
    public func load(now: Date = Date()) -> Loaded {
        try? FileManager.default.removeItem(at: temporaryFile)  // a save cut short
        let path = file.path
        guard FileManager.default.fileExists(atPath: path) else { return Loaded(state: ZapperState(), message: nil) }
        // Its size before its bytes: a file no state of ours can be is not read at all.
        let size = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
        var data = Data()
        if size <= Self.maxBytes {
            do {
                data = try Data(contentsOf: file)
            } catch {
                return Loaded(state: ZapperState(),
                              message: "\(path) cannot be read (\((error as NSError).localizedDescription)); using defaults")
            }
        }
        let what: String
        if size > Self.maxBytes || data.count > Self.maxBytes {
            what = "is \(max(size, data.count) >> 20) MB, more than the \(Self.maxBytes >> 20) MB a state may be"
        } else if data.isEmpty {
            what = "is empty"
        } else {
            do {
                return Loaded(state: try ZapperState.decode(data), message: nil)
            } catch {
                what = "is not valid state (\(Self.reason(error)), \(data.count) bytes)"
            }
        }
        let aside = directory.appendingPathComponent(Self.fileName + ".bad-" + Self.stamp(now))
        var target = aside
        var attempt = 1
        while FileManager.default.fileExists(atPath: target.path) {
            attempt += 1
            target = URL(fileURLWithPath: aside.path + "-\(attempt)")
        }
        if rename(path, target.path) == 0 {
            return Loaded(state: ZapperState(), message: "\(path) \(what); moved to \(target.lastPathComponent), using defaults")
        }
        let error = String(cString: strerror(errno))
        return Loaded(state: ZapperState(), message: "\(path) \(what) and could not be moved aside (\(error)); using defaults")
    }

    /// Writes `state` atomically and durably (see the type's comment). It
    /// blocks on two fsyncs: call it from the player's state-writer thread,
    /// never from Swift's cooperative pool.
    public func save(_ state: ZapperState) throws(StateStoreError) {
        let data: Data
        do {
            data = try state.encoded()
        } catch {
            throw StateStoreError(path: file.path, message: "cannot be encoded (\(error))")
        }
        let temporary = temporaryFile.path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .posix(temporary, "open") }
        var closed = false
        defer { if !closed { close(descriptor) } }
        let writeError: Int32? = data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
        if let writeError {
            errno = writeError
            throw .posix(temporary, "write")
        }
        afterStep?(.wroteTemporary)
        guard fsync(descriptor) == 0 else { throw .posix(temporary, "fsync") }
        closed = true
        guard close(descriptor) == 0 else { throw .posix(temporary, "close") }
        afterStep?(.syncedTemporary)
        guard rename(temporary, file.path) == 0 else { throw .posix(file.path, "rename") }
        afterStep?(.renamed)
        let directoryDescriptor = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directoryDescriptor >= 0 else { throw .posix(directory.path, "open") }
        defer { close(directoryDescriptor) }
        guard fsync(directoryDescriptor) == 0 else { throw .posix(directory.path, "fsync") }
        afterStep?(.syncedDirectory)
    }

    static func stamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.string(from: date)
    }

    /// A short reason from a JSON decoding error.
    static func reason(_ error: any Error) -> String {
        switch error as? DecodingError {
        case .dataCorrupted: "not JSON, or cut short"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context):
            "wrong value at \(context.codingPath.map(\.stringValue).joined(separator: ".").isEmpty ? "top level" : context.codingPath.map(\.stringValue).joined(separator: "."))"
        default: "\(error)"
        }
    }
}

public struct StateStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var message: String

    public var description: String { "\(path): \(message)" }

    static func posix(_ path: String, _ call: String) -> StateStoreError {
        StateStoreError(path: path, message: "\(call) failed: \(String(cString: strerror(errno)))")
    }
}

/// The player keeps its state through this store.
extension StateStore: StateSaving {}
