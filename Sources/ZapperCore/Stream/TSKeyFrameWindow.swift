/// What a warm raw MPEG-TS channel keeps of its stream while nobody watches it:
/// the bytes from its latest video key frame on (a random_access_indicator, or an
/// H.264/HEVC SPS or IDR at a PES start), behind its latest PAT and PMT, so a
/// promotion decodes a whole picture at once. Bounded: a stream that goes `limit`
/// bytes without a key frame keeps nothing until the next one. Every field of the
/// stream is read as hostile (`TSPacket`); a lost sync byte is searched for again.
public struct TSKeyFrameWindow: Sendable {
    /// The most bytes kept after a key frame.
    public let limit: Int
    /// Program tables kept (PMT PIDs followed), and video streams known.
    static let maxPrograms = 16
    static let maxStreams = 64

    private var carry: [UInt8] = []
    private var pat: [UInt8]?
    private var pmtPIDs: [Int] = []
    private var pmts: [Int: [UInt8]] = [:]
    private var videoTypes: [Int: UInt8] = [:]
    private var kept: [UInt8] = []
    private var keeping = false
    private var inSync = false
    /// Key frames seen, and bytes skipped to find a sync byte again.
    public private(set) var keyFrames = 0
    /// Pictures begun (video PES starts) since the latest key frame: from 1 on, the key frame's
    /// own picture is whole in `bytes`.
    public private(set) var picturesAfterKeyFrame = 0
    /// Where (bytes from the first appended) the first picture after the first key frame began:
    /// the bytes before it hold that key frame whole.
    public private(set) var firstKeyFrameEnd: Int?
    /// Bytes appended so far.
    private var appended = 0
    public private(set) var skippedBytes = 0

    public init(limit: Int = 16 << 20) {
        self.limit = max(limit, TSPacket.size)
    }

    /// The tables, then every packet from the latest key frame, and the start of the
    /// packet still coming (the next bytes continue it); empty until there is a key frame.
    public var bytes: [UInt8] {
        guard keeping else { return [] }
        return (pat ?? []) + pmtPIDs.compactMap { pmts[$0] }.joined() + kept + (inSync ? carry : [])
    }

    /// Reads the next bytes of the stream, in any chunking.
    public mutating func append(_ chunk: some Collection<UInt8>) {
        let bufferStart = appended - carry.count
        var buffer = carry
        buffer.append(contentsOf: chunk)
        appended += chunk.count
        var index = 0
        while buffer.count - index >= TSPacket.size {
            if !inSync {
                // Joined mid-packet, or lost sync: a sync byte counts when the next packet's is there too.
                guard buffer.count - index > TSPacket.size else { break }
                guard buffer[index] == TSPacket.sync, buffer[index + TSPacket.size] == TSPacket.sync else {
                    skippedBytes += 1
                    index += 1
                    continue
                }
                inSync = true
            }
            guard let header = TSPacket(buffer, at: index) else {
                inSync = false
                continue
            }
            take(buffer[index..<(index + TSPacket.size)], header: header, at: bufferStart + index)
            index += TSPacket.size
        }
        carry = Array(buffer[index...])
    }

    private mutating func take(_ packet: ArraySlice<UInt8>, header: TSPacket, at offset: Int) {
        if header.pid == TSPacket.patPID, let section = TSPacket.section(packet, header: header) {
            let listed = Array(TSPacket.programMapPIDs(pat: section).prefix(Self.maxPrograms))
            if !listed.isEmpty {
                pat = Array(packet)
                pmtPIDs = listed
                pmts = pmts.filter { listed.contains($0.key) }
            }
        } else if pmtPIDs.contains(header.pid), let section = TSPacket.section(packet, header: header) {
            let streams = TSPacket.streams(pmt: section)
            if !streams.isEmpty {
                pmts[header.pid] = Array(packet)
                for stream in streams where TSPacket.isVideo(streamType: stream.type) && videoTypes.count < Self.maxStreams {
                    videoTypes[stream.pid] = stream.type
                }
            }
        }
        if header.payloadStart, let type = videoTypes[header.pid] {
            if header.randomAccess || TSPacket.startsKeyFrame(packet, header: header, streamType: type) {
                kept.removeAll(keepingCapacity: true)
                keeping = true
                keyFrames += 1
                picturesAfterKeyFrame = 0
            } else if keeping {
                picturesAfterKeyFrame += 1
                if firstKeyFrameEnd == nil { firstKeyFrameEnd = offset }
            }
        }
        guard keeping else { return }
        if kept.count + TSPacket.size > limit {
            // Too long without a key frame: nothing is worth keeping until the next.
            kept.removeAll()
            keeping = false
            picturesAfterKeyFrame = 0
            return
        }
        kept.append(contentsOf: packet)
    }
}
