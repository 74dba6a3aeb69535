/// Every metric zapper exposes: its name (Prometheus conventions: the `zapper_` prefix, base
/// units, `_total` on counters), its type, its labels and what it means (the `# HELP` line).
/// The "Metrics" table of this target's README lists the same; a test holds the two together.
public struct MetricDescription: Sendable, Equatable {
    public enum Kind: String, Sendable { case counter, gauge, histogram }
    public let name: String
    public let kind: Kind
    public let labels: [String]
    public let help: String
    /// A histogram's bucket bounds, in its base unit.
    public let buckets: [Double]

    init(_ name: String, _ kind: Kind, labels: [String] = [], buckets: [Double] = [], _ help: String) {
        self.name = name
        self.kind = kind
        self.labels = labels
        self.help = help
        self.buckets = buckets
    }
}

public enum MetricCatalogue {
    public static let zapSeconds = MetricDescription(
        "zapper_zap_seconds", .histogram, labels: ["kind"],
        buckets: [0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1, 1.5, 2, 3, 5, 8, 13, 20],
        "Seconds from the key (or the start) to the channel's first picture on screen, by kind: adjacent, number or cold.")
    public static let tunes = MetricDescription(
        "zapper_tunes_total", .counter, labels: ["reason"],
        "Tunes started, by reason (start, next, previous, number, last, list, retry, failover).")
    public static let firstFrames = MetricDescription(
        "zapper_first_frames_total", .counter, "Tunes whose first picture reached the screen.")
    public static let failures = MetricDescription(
        "zapper_load_failures_total", .counter, labels: ["reason"],
        "Channels that failed to load or to play on, by reason (http-404, timeout, unreachable, frozen, ...).")
    public static let stalls = MetricDescription(
        "zapper_stalls_total", .counter, "Playing channels whose pictures stopped coming until they were tuned again.")
    public static let pictureFaults = MetricDescription(
        "zapper_picture_faults_total", .counter, labels: ["kind"],
        "Playing channels tuned again by the picture watch, by kind: frozen (the same picture) or black.")
    public static let latePictures = MetricDescription(
        "zapper_pictures_late_total", .counter, "Pictures presented more than 100 ms after their time on the audio clock.")
    public static let droppedPictures = MetricDescription(
        "zapper_pictures_dropped_total", .counter, "Decoded pictures dropped unseen because a later one was already due.")
    public static let avOffset = MetricDescription(
        "zapper_av_offset_seconds", .gauge,
        "The audio clock minus the time of the picture last presented (positive: the picture is behind the sound).")
    public static let audioUnderruns = MetricDescription(
        "zapper_audio_underruns_total", .counter, "Times silence stood in for the playing channel's sound because none was decoded in time.")
    public static let channelInfo = MetricDescription(
        "zapper_channel_info", .gauge, labels: ["number", "name"], "The channel on screen (from its first picture), always 1.")
    public static let guideAge = MetricDescription(
        "zapper_guide_age_seconds", .gauge, "Seconds since the programme guide was last loaded (absent until it first is).")
    public static let offline = MetricDescription(
        "zapper_offline", .gauge,
        "1 while copies kept from earlier fetches stand in for the lineup, the guide or logos that could not be fetched, else 0.")
    public static let uptime = MetricDescription(
        "zapper_uptime_seconds", .gauge, "Seconds since zapper started.")
    public static let residentMemory = MetricDescription(
        "zapper_resident_memory_bytes", .gauge, "Resident memory of the zapper process, in bytes.")
    public static let allocatorMemory = MetricDescription(
        "zapper_allocator_bytes", .gauge, labels: ["state"],
        "Memory held by zapper's allocator (jemalloc), in bytes, by state: allocated (live data), active (the pages holding it), metadata, resident (all its pages in memory) and dirty (freed, not given back yet). Absent under another allocator.")
    public static let cpuSeconds = MetricDescription(
        "zapper_cpu_seconds_total", .counter, "CPU time used by the zapper process (user and system), in seconds.")

    public static let all: [MetricDescription] = [
        zapSeconds, tunes, firstFrames, failures, stalls, pictureFaults, latePictures, droppedPictures, avOffset, audioUnderruns,
        channelInfo, guideAge, offline, uptime, residentMemory, allocatorMemory, cpuSeconds,
    ]

    static let byName: [String: MetricDescription] = Dictionary(all.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
}
