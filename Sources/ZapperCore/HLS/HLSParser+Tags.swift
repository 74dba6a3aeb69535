import Foundation

/// The attribute lists of EXT-X-STREAM-INF, EXT-X-MEDIA and EXT-X-KEY, read
/// into their values (variables already substituted, `HLSVariables`).
extension HLSParser.State {
    func variant(_ attributes: HLSAttributeList) throws -> HLSVariant {
        guard let bandwidth = try attributes.integer("BANDWIDTH", upTo: HLSLimits.bandwidth) else {
            throw fail("EXT-X-STREAM-INF has no BANDWIDTH")
        }
        var variant = HLSVariant(uri: base, bandwidth: bandwidth)
        variant.averageBandwidth = try attributes.integer("AVERAGE-BANDWIDTH", upTo: HLSLimits.bandwidth)
        if let text = attributes["RESOLUTION"] {
            let parts = text.split(separator: "x")
            let sides = HLSLimits.pictureSide
            guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
                  sides.contains(width), sides.contains(height) else {
                throw fail("RESOLUTION=\(text) is not WIDTHxHEIGHT, each from 1 to \(sides.upperBound)")
            }
            variant.resolution = HLSResolution(width: width, height: height)
        }
        variant.codecs = attributes["CODECS"].map { $0.split(separator: ",").map { String($0.trimmingSpaces) } } ?? []
        variant.frameRate = try attributes.float("FRAME-RATE", in: 0...HLSLimits.frameRate)
        variant.audioGroup = attributes["AUDIO"]
        variant.subtitlesGroup = attributes["SUBTITLES"]
        if let captions = attributes["CLOSED-CAPTIONS"] {
            // A quoted group id, or the enumerated string NONE (unquoted).
            variant.closedCaptions = captions == "NONE" && !attributes.quoted.contains("CLOSED-CAPTIONS") ? .none : .group(captions)
        }
        return variant
    }

    func rendition(_ attributes: HLSAttributeList) throws -> HLSRendition {
        let typeText = try attributes.required("TYPE", in: "EXT-X-MEDIA")
        guard let type = HLSRendition.MediaType(rawValue: typeText) else { throw fail("EXT-X-MEDIA TYPE=\(typeText) is unknown") }
        var rendition = HLSRendition(type: type, groupID: try attributes.required("GROUP-ID", in: "EXT-X-MEDIA"),
                                     name: try attributes.required("NAME", in: "EXT-X-MEDIA"))
        rendition.language = attributes["LANGUAGE"]
        rendition.isDefault = try attributes.yesNo("DEFAULT")
        rendition.autoselect = try attributes.yesNo("AUTOSELECT") || rendition.isDefault
        rendition.forced = try attributes.yesNo("FORCED")
        // RFC 8216bis: a comma-separated list of Uniform Type Identifiers.
        rendition.describesVideo = attributes["CHARACTERISTICS"]?.split(separator: ",")
            .contains { $0.trimmingCharacters(in: .whitespaces) == HLSRendition.describesVideoCharacteristic } ?? false
        if type == .closedCaptions {
            // An INSTREAM-ID not known here leaves the rendition unoffered rather than failing the master.
            rendition.instream = attributes["INSTREAM-ID"].flatMap(CaptionChannel.init(instreamID:))
        }
        if let uri = attributes["URI"] {
            guard type != .closedCaptions else { throw fail("EXT-X-MEDIA TYPE=CLOSED-CAPTIONS must not have a URI") }
            rendition.uri = try resolve(uri)
        } else if type == .subtitles {
            throw fail("EXT-X-MEDIA TYPE=SUBTITLES has no URI")
        }
        return rendition
    }

    func segmentKey(_ attributes: HLSAttributeList) throws -> HLSKey {
        let methodText = try attributes.required("METHOD", in: "EXT-X-KEY")
        let method = HLSKey.Method(methodText)
        var key = HLSKey(method: method)
        guard method != .none else { return key }
        let uri = try attributes.required("URI", in: "EXT-X-KEY")
        key.keyFormat = attributes["KEYFORMAT"]
        // A key this client fetches must pass the URL policy; one it never
        // fetches (SAMPLE-AES with skd://, say) only marks its segments.
        key.uri = key.isPlayable ? try resolve(uri) : try? resolve(uri)
        if let text = attributes["IV"] {
            let hex = text.hasPrefix("0x") || text.hasPrefix("0X") ? text.dropFirst(2) : Substring(text)
            guard hex.count == 32, let bytes = Hex.bytes(hex) else { throw fail("IV=\(text) is not a 128-bit hexadecimal value") }
            key.iv = bytes
        }
        return key
    }
}
