/// What `--mode` asks for: a size and maybe a refresh rate.
public struct ModeRequest: Equatable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    public var refreshHz: Double?

    public init(width: Int, height: Int, refreshHz: Double? = nil) {
        self.width = width
        self.height = height
        self.refreshHz = refreshHz
    }

    /// Reads "1920x1080", "1920x1080@60" or "1280x720@59.94".
    public static func parse(_ text: String) throws(KMSError) -> ModeRequest {
        let parts = text.lowercased().split(separator: "@", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count) else { throw .badModeSyntax(text) }
        let size = parts[0].split(separator: "x", omittingEmptySubsequences: false)
        guard size.count == 2, let width = Int(size[0]), let height = Int(size[1]),
              width > 0, height > 0 else { throw .badModeSyntax(text) }
        var refresh: Double?
        if parts.count == 2 {
            let hz = parts[1].hasSuffix("hz") ? parts[1].dropLast(2) : parts[1]
            guard let value = Double(hz), value > 0, value < 1000 else { throw .badModeSyntax(text) }
            refresh = value
        }
        return ModeRequest(width: width, height: height, refreshHz: refresh)
    }

    public var description: String {
        guard let refreshHz else { return "\(width)x\(height)" }
        let hz = refreshHz.rounded() == refreshHz ? String(Int(refreshHz)) : String(refreshHz)
        return "\(width)x\(height)@\(hz)"
    }
}

/// The connector and mode Zapper will drive.
public struct ModeChoice: Equatable, Sendable {
    public var connector: KMSConnector
    /// Index of `mode` in `connector.modes` (the backend keeps the kernel's mode structs in that order).
    public var modeIndex: Int
    public var mode: KMSMode { connector.modes[modeIndex] }

    /// The connector named `connectorName`, else the first connected one; the mode
    /// matching `request`, else the preferred mode, else the first offered.
    ///
    /// With a request, progressive modes of that size win over interlaced ones; with
    /// `@HZ` the closest refresh rate within half a hertz is taken; without it, the
    /// preferred mode of that size, else the highest refresh rate.
    public static func choose(in description: KMSDescription, device: String,
                              connector connectorName: String? = nil,
                              mode request: ModeRequest? = nil) throws(KMSError) -> ModeChoice {
        let names = description.connectors.map(\.name)
        let connector: KMSConnector
        if let connectorName {
            guard let named = description.connectors.first(where: { $0.name.lowercased() == connectorName.lowercased() }) else {
                throw .unknownConnector(name: connectorName, connectors: names)
            }
            guard named.connected else { throw .connectorNotConnected(name: named.name) }
            connector = named
        } else {
            guard let first = description.connectors.first(where: \.connected) else {
                throw .noConnectedConnector(device: device, connectors: names)
            }
            connector = first
        }
        guard !connector.modes.isEmpty else { throw .noModes(connector: connector.name) }
        guard let request else {
            let index = connector.modes.firstIndex(where: \.preferred) ?? 0
            return ModeChoice(connector: connector, modeIndex: index)
        }
        let index = bestIndex(in: connector.modes, for: request)
        guard let index else {
            throw .modeNotOffered(requested: request.description, connector: connector.name,
                                  offered: offeredList(connector.modes))
        }
        return ModeChoice(connector: connector, modeIndex: index)
    }

    static func bestIndex(in modes: [KMSMode], for request: ModeRequest) -> Int? {
        var candidates = modes.indices.filter { modes[$0].width == request.width && modes[$0].height == request.height }
        if let refresh = request.refreshHz {
            candidates = candidates.filter { abs(modes[$0].refreshHz - refresh) < 0.5 }
        }
        // Order: progressive first; then closest to the asked rate (or preferred, then
        // highest rate); the kernel's order breaks ties.
        return candidates.min { a, b in
            let ma = modes[a], mb = modes[b]
            if ma.interlaced != mb.interlaced { return !ma.interlaced }
            if let refresh = request.refreshHz {
                let da = abs(ma.refreshHz - refresh), db = abs(mb.refreshHz - refresh)
                if da != db { return da < db }
            } else {
                if ma.preferred != mb.preferred { return ma.preferred }
                if ma.refreshMilliHz != mb.refreshMilliHz { return ma.refreshMilliHz > mb.refreshMilliHz }
            }
            return a < b
        }
    }

    /// Distinct mode names in the kernel's order, for error messages.
    static func offeredList(_ modes: [KMSMode]) -> [String] {
        var seen = Set<String>()
        return modes.map(\.description).filter { seen.insert($0).inserted }
    }
}
