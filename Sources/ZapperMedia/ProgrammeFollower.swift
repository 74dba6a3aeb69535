import CFFmpeg

/// Which programme of an MPEG-TS a `Demuxer` plays, and its streams as its PMT lists them now.
///
/// - At the start: the programme asked for (its service id), else the first with a picture,
///   else the first. A container without programmes (fMP4), or a programme whose PMT lists
///   nothing yet, plays every stream.
/// - While it plays: libavformat follows each new PMT (a headend reconfigured: other PIDs,
///   PIDs back again, an SD programme turned HD), and `changed` tells the new set once.
struct ProgrammeFollower {
    /// The service id played; nil: no programmes.
    private(set) var id: Int32?
    /// Its streams (stream indexes); nil: every stream.
    private(set) var streams: Set<Int>?

    func plays(_ index: Int) -> Bool { streams?.contains(index) ?? true }

    mutating func choose(in format: UnsafeMutablePointer<AVFormatContext>, wanted: Int?, isVideo: (Int) -> Bool) {
        let programs = Self.programs(format)
        guard let chosen = programs.first(where: { wanted != nil && Int($0.id) == wanted })
                ?? programs.first(where: { $0.streams.contains(where: isVideo) }) ?? programs.first else { return }
        id = chosen.id
        streams = chosen.streams.isEmpty ? nil : chosen.streams
    }

    /// The played programme's streams when they are not what they were (nil: unchanged).
    mutating func changed(in format: UnsafeMutablePointer<AVFormatContext>) -> Set<Int>? {
        guard let id, let now = Self.programs(format).first(where: { $0.id == id })?.streams, !now.isEmpty, now != streams else { return nil }
        streams = now
        return now
    }

    private static func programs(_ format: UnsafeMutablePointer<AVFormatContext>) -> [(id: Int32, streams: Set<Int>)] {
        (0..<Int(format.pointee.nb_programs)).map { index in
            let program = format.pointee.programs[index]!
            return (program.pointee.id, Set((0..<Int(program.pointee.nb_stream_indexes)).map { Int(program.pointee.stream_index[$0]) }))
        }
    }
}
