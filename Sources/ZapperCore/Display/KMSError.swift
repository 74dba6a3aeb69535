/// Why the KMS display cannot start or go on, in one line a person can act on.
public enum KMSError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No DRM card to open (`tried` lists what was looked at).
    case noDevice(tried: String)
    /// The device opened but does not do atomic modesetting.
    case notAtomic(device: String)
    /// The device has no dumb-buffer support.
    case noDumbBuffers(device: String)
    /// No connector has a display attached; `connectors` lists those that exist.
    case noConnectedConnector(device: String, connectors: [String])
    /// `--connector NAME` names no connector of the device.
    case unknownConnector(name: String, connectors: [String])
    /// `--connector NAME` exists but has nothing attached.
    case connectorNotConnected(name: String)
    /// A connected connector that offers no mode at all.
    case noModes(connector: String)
    /// `--mode` could not be read.
    case badModeSyntax(String)
    /// `--mode` names a mode the connector does not offer.
    case modeNotOffered(requested: String, connector: String, offered: [String])
    /// Another process (a compositor, another zapper) is DRM master.
    case masterHeld(device: String)
    /// Every rung of the plane ladder was refused by the driver's TEST_ONLY commit.
    case noPlaneConfiguration(connector: String, mode: String)
    /// present() was called while the previous page flip has not completed.
    case flipPending

    public var description: String {
        switch self {
        case .noDevice(let tried):
            return "no KMS device (\(tried))"
        case .notAtomic(let device):
            return "\(device): the driver does not support atomic modesetting"
        case .noDumbBuffers(let device):
            return "\(device): the driver has no dumb buffers"
        case .noConnectedConnector(let device, let connectors):
            let list = connectors.isEmpty ? "it has no connectors" : "connectors: \(connectors.joined(separator: ", "))"
            return "\(device): no connector has a display attached (\(list))"
        case .unknownConnector(let name, let connectors):
            return "--connector \(name): no such connector (there are: \(connectors.joined(separator: ", ")))"
        case .connectorNotConnected(let name):
            return "--connector \(name): nothing is attached to it"
        case .noModes(let connector):
            return "\(connector): the display offers no mode"
        case .badModeSyntax(let text):
            return "--mode \(text): expected WIDTHxHEIGHT or WIDTHxHEIGHT@HZ, e.g. 1920x1080@60"
        case .modeNotOffered(let requested, let connector, let offered):
            return "--mode \(requested): \(connector) does not offer it (offered: \(offered.joined(separator: ", ")))"
        case .masterHeld(let device):
            return "\(device): another program is DRM master (a compositor or display server is running)"
        case .noPlaneConfiguration(let connector, let mode):
            return "\(connector) \(mode): the driver refused every plane configuration (even one XRGB8888 primary plane)"
        case .flipPending:
            return "present() called before the previous page flip completed"
        }
    }
}
