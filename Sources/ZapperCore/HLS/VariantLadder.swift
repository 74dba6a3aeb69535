/// A master playlist's variants as rungs of one ladder: a variant listed again with
/// the same attributes and another URI (RFC 8216 §6.3.3 redundant streams, a backup
/// host) is the same rung. The chooser steps between rungs; within a rung, a variant
/// that fails hands over to the next one listed before anything steps down.
public struct VariantLadder: Sendable, Equatable {
    /// Each rung's variants (indices into the master's list), in the order listed;
    /// rungs in the order of their first variant.
    public let rungs: [[Int]]
    /// The peak bandwidth of each rung (for `VariantChooser`, which picks a rung).
    public let bandwidths: [Int]
    /// Each rung's picture size in pixels (nil: no RESOLUTION, or one too large to count).
    public let pixels: [Int?]
    /// Each rung's RESOLUTION, where its pixels count.
    private let sizes: [HLSResolution?]
    private let rungOfVariant: [Int]

    public init(_ variants: [HLSVariant]) {
        var rungs: [[Int]] = []
        var byKey: [Key: Int] = [:]
        var rungOfVariant: [Int] = []
        for (index, variant) in variants.enumerated() {
            let key = Key(variant)
            if let rung = byKey[key] {
                rungs[rung].append(index)
                rungOfVariant.append(rung)
            } else {
                byKey[key] = rungs.count
                rungOfVariant.append(rungs.count)
                rungs.append([index])
            }
        }
        self.rungs = rungs
        bandwidths = rungs.map { variants[$0[0]].bandwidth }
        sizes = rungs.map { rung in
            variants[rung[0]].resolution.flatMap { size in
                let product = size.width.multipliedReportingOverflow(by: size.height)
                return product.overflow || size.width <= 0 || size.height <= 0 ? nil : size
            }
        }
        pixels = sizes.map { $0.map { $0.width * $0.height } }
        self.rungOfVariant = rungOfVariant
    }

    /// What makes two `EXT-X-STREAM-INF`s the same stream: everything but the URI.
    private struct Key: Hashable {
        var bandwidth: Int
        var averageBandwidth: Int?
        var width: Int?
        var height: Int?
        var codecs: [String]
        var frameRate: Double?
        var audioGroup: String?
        var subtitlesGroup: String?

        init(_ variant: HLSVariant) {
            bandwidth = variant.bandwidth
            averageBandwidth = variant.averageBandwidth
            width = variant.resolution?.width
            height = variant.resolution?.height
            codecs = variant.codecs
            frameRate = variant.frameRate
            audioGroup = variant.audioGroup
            subtitlesGroup = variant.subtitlesGroup
        }
    }

    /// The rung variant `index` is on (nil: not a variant of this ladder).
    public func rung(of index: Int) -> Int? {
        rungOfVariant.indices.contains(index) ? rungOfVariant[index] : nil
    }

    /// The variant to try after `index` failed, when `tried` variants of its rung
    /// (`index` included) have failed since one last worked: the next one listed
    /// (round the rung), nil when every one has been tried.
    public func backup(after index: Int, tried: Int) -> Int? {
        guard let rung = rung(of: index) else { return nil }
        let members = rungs[rung]
        guard tried < members.count, let position = members.firstIndex(of: index) else { return nil }
        return members[(position + 1) % members.count]
    }

    /// The variants that may stand in for `index`'s segment where it has an EXT-X-GAP, in
    /// the order to ask them: its redundant copies (the same picture), then the rungs below,
    /// nearest first, then those above, nearest first; each rung's variants as listed.
    public func standIns(for index: Int) -> [Int] {
        guard let rung = rung(of: index), let position = rungs[rung].firstIndex(of: index) else { return [] }
        let members = rungs[rung]
        let copies = (1..<members.count).map { members[(position + $0) % members.count] }
        let others = bandwidths.indices.filter { $0 != rung }
        let below = others.filter { bandwidths[$0] <= bandwidths[rung] }.sorted { bandwidths[$0] > bandwidths[$1] }
        let above = others.filter { bandwidths[$0] > bandwidths[rung] }.sorted { bandwidths[$0] < bandwidths[$1] }
        return copies + (below + above).flatMap { rungs[$0] }
    }

    /// The rung just below `rung` in bandwidth, nil when it is the lowest.
    public func lower(than rung: Int) -> Int? {
        guard bandwidths.indices.contains(rung) else { return nil }
        return bandwidths.indices.filter { bandwidths[$0] < bandwidths[rung] }.max { bandwidths[$0] < bandwidths[$1] }
    }

    /// The highest rung, as a rank in bandwidth order (0: the lowest), whose pictures have
    /// fewer than `ceiling` pixels: what a box that decodes pictures that large too slowly
    /// may still fetch. 0 when none does (the lowest plays whatever it costs); a rung that
    /// does not say its size is not chosen above the lowest.
    public func rank(fewerPixelsThan ceiling: Int) -> Int {
        let ascending = bandwidths.indices.sorted { bandwidths[$0] < bandwidths[$1] }
        return ascending.indices.last { rank in pixels[ascending[rank]].map { $0 < ceiling } ?? false } ?? 0
    }

    /// The fewest pixels not worth fetching for a `screen` that size: one more than the
    /// smallest rung whose pictures fit it without being enlarged by more than 2 % (720p fills
    /// a 1300x734 screen, not a 1366x768 one), whatever its bandwidth; the rungs above it
    /// would cost bytes and decoding for a picture made smaller again. nil when no rung
    /// says a size that large (any rung may be chosen), or for a screen with no pixels.
    public func ceiling(forScreen screen: HLSResolution) -> Int? {
        guard screen.width > 0, screen.height > 0 else { return nil }
        let filling = sizes.compactMap { size -> Int? in
            guard let size else { return nil }
            // Fitted, the picture is enlarged by min(screen.width / width, screen.height / height).
            let enlargement = min(Double(screen.width) / Double(size.width), Double(screen.height) / Double(size.height))
            return enlargement <= 1.02 ? size.width * size.height : nil
        }
        return filling.min().map { $0 + 1 }
    }
}
