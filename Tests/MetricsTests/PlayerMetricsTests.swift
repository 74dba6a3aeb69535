import Foundation
import Testing
import ZapperCore
@testable import ZapperMetrics

@Suite struct PlayerMetricsTests {
    @Test func theKindOfAZapFollowsItsReasonAndWhetherItWasWarm() {
        #expect(ZapKind(reason: .next, warm: true) == .adjacent)
        #expect(ZapKind(reason: .previous, warm: true) == .adjacent)
        #expect(ZapKind(reason: .next, warm: false) == .cold)
        #expect(ZapKind(reason: .previous, warm: false) == .cold)
        for reason in [TuneReason.number, .list, .last] {
            #expect(ZapKind(reason: reason, warm: false) == .number)
            #expect(ZapKind(reason: reason, warm: true) == .number)
        }
        for reason in [TuneReason.start, .retry, .failover] {
            #expect(ZapKind(reason: reason, warm: true) == .cold)
            #expect(ZapKind(reason: reason, warm: false) == .cold)
        }
    }

    @Test func aTuneAndItsFirstFrameGiveTheZapHistogramTheCountersAndTheChannelOnScreen() {
        let metrics = PlayerMetrics()
        metrics.record(.tune(channel: 1, channelName: "One", reason: .start, warm: false))
        metrics.record(.firstFrame(channel: 1, zapMilliseconds: 1200))
        metrics.record(.tune(channel: 2, channelName: "Two \"HD\"", reason: .next, warm: true))
        metrics.record(.firstFrame(channel: 2, zapMilliseconds: 250))
        let scrape = Exposition(metrics)
        #expect(scrape[#"zapper_tunes_total{reason="start"}"#] == 1)
        #expect(scrape[#"zapper_tunes_total{reason="next"}"#] == 1)
        #expect(scrape["zapper_first_frames_total"] == 2)
        #expect(scrape[#"zapper_zap_seconds_count{kind="cold"}"#] == 1)
        #expect(scrape[#"zapper_zap_seconds_sum{kind="cold"}"#] == 1.2)
        #expect(scrape[#"zapper_zap_seconds_count{kind="adjacent"}"#] == 1)
        #expect(scrape[#"zapper_zap_seconds_sum{kind="adjacent"}"#] == 0.25)
        #expect(scrape[#"zapper_zap_seconds_bucket{kind="adjacent",le="0.2"}"#] == 0)
        #expect(scrape[#"zapper_zap_seconds_bucket{kind="adjacent",le="0.3"}"#] == 1)
        #expect(scrape[#"zapper_zap_seconds_bucket{kind="cold",le="1.0"}"#] == 0)
        #expect(scrape[#"zapper_zap_seconds_bucket{kind="cold",le="1.5"}"#] == 1)
        #expect(scrape.named("zapper_zap_seconds_count").count == 2, "no number zaps yet: \(scrape.named("zapper_zap_seconds_count"))")
        // Only the channel on screen has an info series, its name escaped.
        #expect(scrape.named("zapper_channel_info") == [#"zapper_channel_info{number="2",name="Two \"HD\""}"#: 1])
    }

    @Test func aFirstFrameOfAnotherChannelThanTheTuneIsCountedButNotTimed() {
        let metrics = PlayerMetrics()
        metrics.record(.tune(channel: 3, channelName: "Three", reason: .number, warm: false))
        metrics.record(.firstFrame(channel: 4, zapMilliseconds: 100))
        let scrape = Exposition(metrics)
        #expect(scrape["zapper_first_frames_total"] == 1)
        #expect(scrape.named("zapper_zap_seconds").isEmpty)
        #expect(scrape.named("zapper_channel_info").isEmpty)
        metrics.record(.firstFrame(channel: 3, zapMilliseconds: -5))
        #expect(Exposition(metrics)[#"zapper_zap_seconds_count{kind="number"}"#] == 1)
        #expect(Exposition(metrics)[#"zapper_zap_seconds_sum{kind="number"}"#] == 0)
    }

    @Test func failuresAreCountedByReasonAndTheirSeriesAreBounded() {
        let metrics = PlayerMetrics()
        metrics.record(.loadFailed(channel: 1, PlaybackFailure(.http(status: 404), "not found")))
        metrics.record(.loadFailed(channel: 2, PlaybackFailure(.http(status: 404), "not found")))
        metrics.record(.loadFailed(channel: 2, PlaybackFailure(.timeout, "no answer")))
        metrics.record(.stalled(channel: 2, seconds: 8))
        metrics.record(.frozen(channel: 2, seconds: 10))
        metrics.record(.frozen(channel: 3, seconds: 10))
        metrics.record(.black(channel: 2, seconds: 10))
        var scrape = Exposition(metrics)
        #expect(scrape[#"zapper_picture_faults_total{kind="frozen"}"#] == 2)
        #expect(scrape[#"zapper_picture_faults_total{kind="black"}"#] == 1)
        #expect(scrape[#"zapper_load_failures_total{reason="http-404"}"#] == 2)
        #expect(scrape[#"zapper_load_failures_total{reason="timeout"}"#] == 1)
        #expect(scrape["zapper_stalls_total"] == 1)
        for status in 400..<500 { metrics.record(.loadFailed(channel: 1, PlaybackFailure(.http(status: status), "x"))) }
        scrape = Exposition(metrics)
        #expect(scrape.named("zapper_load_failures_total").count == PlayerMetrics.maxFailureReasons + 1)
        #expect(scrape[#"zapper_load_failures_total{reason="other"}"#] == Double(100 - (PlayerMetrics.maxFailureReasons - 2) - 1))
    }

    @Test func presentedPicturesGiveTheOffsetLateAndDroppedCounts() {
        let metrics = PlayerMetrics()
        metrics.presented(pictureTime: 10.0, clock: 10.05, dropped: 0)
        var scrape = Exposition(metrics)
        #expect(abs((scrape["zapper_av_offset_seconds"] ?? 0) - 0.05) < 1e-9)
        #expect(scrape["zapper_pictures_late_total"] == 0)
        #expect(scrape["zapper_pictures_dropped_total"] == 0)
        metrics.presented(pictureTime: 11.0, clock: 11.25, dropped: 3)
        metrics.presented(pictureTime: 12.0, clock: .nan, dropped: 0)
        metrics.presented(pictureTime: 12.0, clock: 11.9, dropped: 0)
        metrics.audioUnderrun()
        scrape = Exposition(metrics)
        #expect(scrape["zapper_pictures_late_total"] == 1)
        #expect(scrape["zapper_pictures_dropped_total"] == 3)
        #expect(abs((scrape["zapper_av_offset_seconds"] ?? 0) - -0.1) < 1e-9)
        #expect(scrape["zapper_audio_underruns_total"] == 1)
    }

    @Test func scrapeTimeValuesAreSetAndTheCPUCounterOnlyGrows() {
        let metrics = PlayerMetrics()
        #expect(Exposition(metrics).named("zapper_guide_age_seconds").isEmpty)
        metrics.refresh(uptimeSeconds: 12.5, process: ProcessSample(residentBytes: 4096, cpuSeconds: 1.5), guideAgeSeconds: nil)
        var scrape = Exposition(metrics)
        #expect(scrape["zapper_uptime_seconds"] == 12.5)
        #expect(scrape["zapper_resident_memory_bytes"] == 4096)
        #expect(scrape["zapper_cpu_seconds_total"] == 1.5)
        #expect(scrape.named("zapper_guide_age_seconds").isEmpty)
        #expect(scrape.named("zapper_allocator_bytes").isEmpty, "no allocator sample, no series")
        metrics.refresh(uptimeSeconds: 13, process: ProcessSample(residentBytes: 8192, cpuSeconds: 1.0), guideAgeSeconds: 30)
        metrics.refresh(uptimeSeconds: 14, process: ProcessSample(residentBytes: 8192, cpuSeconds: 2.0), guideAgeSeconds: 31)
        scrape = Exposition(metrics)
        #expect(scrape["zapper_cpu_seconds_total"] == 2.0)
        #expect(scrape["zapper_guide_age_seconds"] == 31)
    }

    @Test func theAllocatorsBytesAreOneSeriesPerStateAndFollowTheLastSample() {
        let metrics = PlayerMetrics()
        let process = ProcessSample(residentBytes: 1, cpuSeconds: 1)
        metrics.refresh(uptimeSeconds: 1, process: process,
                        allocator: AllocatorSample(allocated: 10, active: 20, metadata: 3, resident: 40, dirty: 5), guideAgeSeconds: nil)
        metrics.refresh(uptimeSeconds: 2, process: process,
                        allocator: AllocatorSample(allocated: 11, active: 21, metadata: 4, resident: 41, dirty: .nan), guideAgeSeconds: nil)
        let scrape = Exposition(metrics)
        #expect(scrape.named("zapper_allocator_bytes") == [
            #"zapper_allocator_bytes{state="allocated"}"#: 11, #"zapper_allocator_bytes{state="active"}"#: 21,
            #"zapper_allocator_bytes{state="metadata"}"#: 4, #"zapper_allocator_bytes{state="resident"}"#: 41,
            #"zapper_allocator_bytes{state="dirty"}"#: 5,  // a value that is no number leaves the last one
        ])
    }

    @Test func everyMetricHasItsHelpAndTypeFromTheCatalogue() {
        let metrics = PlayerMetrics()
        metrics.record(.tune(channel: 1, channelName: "One", reason: .start, warm: false))
        metrics.record(.firstFrame(channel: 1, zapMilliseconds: 900))
        metrics.record(.loadFailed(channel: 1, PlaybackFailure(.timeout, "x")))
        metrics.record(.black(channel: 1, seconds: 10))
        metrics.refresh(uptimeSeconds: 1, process: ProcessSample(residentBytes: 1, cpuSeconds: 1),
                        allocator: AllocatorSample(allocated: 1, active: 1, metadata: 1, resident: 1, dirty: 0), guideAgeSeconds: 1)
        let scrape = Exposition(metrics)
        for description in MetricCatalogue.all {
            #expect(scrape.help[description.name] == description.help, "\(description.name)")
            #expect(scrape.types[description.name] == description.kind.rawValue, "\(description.name)")
        }
    }

    @Test func theProcessSampleIsReadFromProcAndHostileTextGivesNone() throws {
        let stat = "4242 (zap (per) x) S 1 4242 4242 0 -1 4194560 1000 0 0 0 250 50 0 0 20 0 9 0 100 1000000 2500 18446744073709551615"
        #expect(ProcessSample.parse(stat: stat, statm: "5000 2500 300 10 0 900 0", ticksPerSecond: 100, pageSize: 4096)
            == ProcessSample(residentBytes: 2500 * 4096, cpuSeconds: 3.0))
        #expect(ProcessSample.parse(stat: "garbage", statm: "1 2", ticksPerSecond: 100, pageSize: 4096) == nil)
        #expect(ProcessSample.parse(stat: stat, statm: "1", ticksPerSecond: 100, pageSize: 4096) == nil)
        #expect(ProcessSample.parse(stat: stat, statm: "1 2", ticksPerSecond: 0, pageSize: 4096) == nil)
        #expect(ProcessSample.parse(stat: "1 (x) S 1 2 3 4 5 6 7 8 9 10 -5 50 0", statm: "1 2", ticksPerSecond: 100, pageSize: 4096) == nil)
        let now = try #require(ProcessSample.current())
        #expect(now.residentBytes > 1_000_000 && now.cpuSeconds > 0)
    }

    /// The Metrics section of Sources/ZapperMetrics/README.md lists every metric of the catalogue, with its type.
    @Test func theReadmeListsEveryMetric() throws {
        let readme = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/ZapperMetrics/README.md"), encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "### Metrics").dropFirst().first?.components(separatedBy: "\n## ").first)
        for description in MetricCatalogue.all {
            #expect(section.contains("| `\(description.name)` | \(description.kind.rawValue) |"), "\(description.name)")
        }
    }
}
