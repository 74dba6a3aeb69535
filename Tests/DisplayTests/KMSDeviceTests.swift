import Foundation
import Testing
import ZapperCore
import ZapperDisplay

/// The KMS backend where there is no KMS device (this build machine): every way
/// in ends in the one-line "no device" error, and nothing is left half-open.
@Suite struct KMSDeviceTests {
    static let hasCards = !KMSDevices.cardPaths().isEmpty

    @Test(.disabled(if: hasCards, "this machine has a KMS device"))
    func openingKMSWithoutADeviceIsAClearError() {
        var logged: [String] = []
        do {
            _ = try KMSDisplay(options: .init()) { logged.append($0) }
            Issue.record("opened a KMS display on a machine without one")
        } catch let error as KMSError {
            guard case .noDevice = error else {
                Issue.record("expected noDevice, got \(error)")
                return
            }
            #expect(error.description.hasPrefix("no KMS device ("))
            #expect(!error.description.contains("\n"))
        } catch {
            Issue.record("expected a KMSError, got \(error)")
        }
        #expect(logged.isEmpty)
    }

    @Test func anExplicitDeviceThatIsNotThereIsAClearError() {
        #expect(throws: KMSError.noDevice(tried: "/nonexistent/card0: No such file or directory")) {
            try KMSDisplay(options: .init(device: "/nonexistent/card0")) { _ in }
        }
    }

    @Test func aFileThatIsNotADRMDeviceIsNotAtomic() throws {
        // Opening works, the DRM ioctls do not: refused before anything is touched.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("zapper-not-a-card-\(getpid())").path
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: KMSError.notAtomic(device: path)) { try KMSDevice(path: path) }
    }
}
