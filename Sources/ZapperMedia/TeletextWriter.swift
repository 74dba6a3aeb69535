import CFFmpeg
import Foundation

/// Writes a teletext subtitle stream (`TeletextPES`) into an MPEG-TS file of its own, for ffmpeg
/// to mux beside a channel's picture and sound: a `dvb_teletext` stream whose teletext descriptor
/// (written by libavformat's muxer from the stream's language and its two extradata bytes) names
/// the page as a subtitle page, each page's PES at its time and, at its end, a page of no rows.
enum TeletextWriter {
    static func write(_ job: DVBSubtitleJob, page: Int, to path: String) throws {
        guard (0x100...0x8FF).contains(page), page & 0xFF != 0xFF else {
            throw AVError(code: zapper_averror(EINVAL), operation: "teletext page \(String(page, radix: 16)) is not 100 to 8FE")
        }
        let output = try OutputFile(path: path, format: "mpegts")
        // The descriptor's entry: teletext type 2 (subtitle page), the magazine (8 is 0), the page's two digits.
        let entry: [UInt8] = [UInt8(0x02 << 3 | ((page >> 8) & 0x7)), UInt8(page & 0xFF)]
        let stream = try output.addStream(codec: AV_CODEC_ID_DVB_TELETEXT, type: AVMEDIA_TYPE_SUBTITLE,
                                          timeBase: AVRational(num: 1, den: 90_000), language: job.language, extradata: entry)
        try output.writeHeader()
        for (pts, shown) in job.events() {
            let rows = shown?.text.map { $0.split(separator: "\n").map(String.init) } ?? []
            for payload in TeletextPES.page(page, rows: rows) {
                let packet = try Packet()
                try AVError.check(av_new_packet(packet.pointer, Int32(payload.count)), "av_new_packet")
                payload.withUnsafeBytes { packet.pointer.pointee.data.update(from: $0.baseAddress!.assumingMemoryBound(to: UInt8.self), count: payload.count) }
                packet.pointer.pointee.pts = av_rescale_q(pts, AVRational(num: 1, den: 90_000), output.timeBase(stream: stream))
                packet.pointer.pointee.dts = packet.pointer.pointee.pts
                packet.pointer.pointee.stream_index = stream
                try output.write(packet)
            }
        }
        try output.finish()
    }
}
