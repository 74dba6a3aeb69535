/// A kernel uevent as it arrives on a NETLINK_KOBJECT_UEVENT socket:
/// "ACTION@DEVPATH\0KEY=VALUE\0KEY=VALUE\0…".
public struct UEvent: Equatable, Sendable {
    public var action: String
    public var devicePath: String
    public var properties: [String: String]

    public init(action: String, devicePath: String, properties: [String: String]) {
        self.action = action
        self.devicePath = devicePath
        self.properties = properties
    }

    /// Reads one datagram; nil for what is not a kernel uevent (udevd's own
    /// "libudev" messages start with that magic, not with "ACTION@").
    public static func parse(_ bytes: some Collection<UInt8>) -> UEvent? {
        let fields = bytes.split(separator: 0, omittingEmptySubsequences: true)
            .map { String(decoding: $0, as: UTF8.self) }
        guard let header = fields.first, let at = header.firstIndex(of: "@") else { return nil }
        var properties: [String: String] = [:]
        for field in fields.dropFirst() {
            guard let equals = field.firstIndex(of: "=") else { continue }
            properties[String(field[..<equals])] = String(field[field.index(after: equals)...])
        }
        return UEvent(action: String(header[..<at]), devicePath: String(header[header.index(after: at)...]),
                      properties: properties)
    }

    /// A DRM device says its connectors changed (a display plugged in or out, or a
    /// mode list changed): "change" on subsystem "drm" with HOTPLUG=1.
    public var isDisplayHotplug: Bool {
        action == "change" && properties["SUBSYSTEM"] == "drm" && properties["HOTPLUG"] == "1"
    }
}
