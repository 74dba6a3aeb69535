import Testing
import ZapperCore

/// The display's rate following the content, on the mode lists real displays' EDIDs give.
@Suite struct RefreshMatchTests {
    /// A European HD TV's 1080p modes (CEA-861 VICs 16, 31, 32, 33, 34 and their 1000/1001 twins), and 720p and 1080i.
    static let tv: [KMSMode] = [
        KMSMode(width: 1920, height: 1080, refreshMilliHz: 60_000, preferred: true),
        KMSMode(width: 1920, height: 1080, refreshMilliHz: 59_940),
        KMSMode(width: 1920, height: 1080, refreshMilliHz: 50_000),
        KMSMode(width: 1920, height: 1080, refreshMilliHz: 30_000),
        KMSMode(width: 1920, height: 1080, refreshMilliHz: 29_970),
        KMSMode(width: 1920, height: 1080, refreshMilliHz: 25_000),
        KMSMode(width: 1920, height: 1080, refreshMilliHz: 24_000),
        KMSMode(width: 1920, height: 1080, refreshMilliHz: 23_976),
        KMSMode(width: 1920, height: 1080, refreshMilliHz: 50_000, interlaced: true),
        KMSMode(width: 1280, height: 720, refreshMilliHz: 50_000),
    ]
    /// A computer monitor: 60 Hz only (and 75 at a lower size).
    static let monitor: [KMSMode] = [
        KMSMode(width: 1920, height: 1080, refreshMilliHz: 60_000, preferred: true),
        KMSMode(width: 1280, height: 1024, refreshMilliHz: 75_000),
    ]
    /// QEMU's bochs display: 1920x1080 at 60 and 50 Hz.
    static let bochs: [KMSMode] = [
        KMSMode(width: 1280, height: 800, refreshMilliHz: 60_000, preferred: true),
        KMSMode(width: 1920, height: 1080, refreshMilliHz: 60_000),
        KMSMode(width: 1920, height: 1080, refreshMilliHz: 50_000),
    ]

    func refresh(_ rate: Double, from current: Int, in modes: [KMSMode]) -> Int? {
        RefreshMatch.mode(for: rate, current: modes[current], offered: modes).map { modes[$0].refreshMilliHz }
    }

    @Test func broadcastRatesGoToTheirFamily() {
        // From 60 Hz: 25 and 50 pictures a second to 50 Hz, 29.97 and 59.94 to 59.94.
        #expect(refresh(25, from: 0, in: Self.tv) == 50_000)
        #expect(refresh(50, from: 0, in: Self.tv) == 50_000)
        #expect(refresh(29.97, from: 0, in: Self.tv) == 59_940)
        #expect(refresh(60_000.0 / 1001, from: 0, in: Self.tv) == 59_940)
        // Film: 24 Hz where offered, not 60.
        #expect(refresh(24, from: 0, in: Self.tv) == 24_000)
        #expect(refresh(24_000.0 / 1001, from: 2, in: Self.tv) == 23_976)
    }

    @Test func aModeOfTheSameFamilyIsKept() {
        // At 50 Hz already: 25 and 50 stay; 30 fps goes to 60.
        #expect(refresh(25, from: 2, in: Self.tv) == nil)
        #expect(refresh(50, from: 2, in: Self.tv) == nil)
        #expect(refresh(30, from: 2, in: Self.tv) == 60_000)
        #expect(refresh(30, from: 0, in: Self.tv) == nil)
    }

    @Test func onlyTheSameSizeAndNeverInterlaced() {
        #expect(refresh(25, from: 0, in: Self.monitor) == nil)
        #expect(refresh(25, from: 1, in: Self.bochs) == 50_000)
        // 1280x800 has no 50 Hz mode: nothing changes.
        #expect(refresh(25, from: 0, in: Self.bochs) == nil)
        let onlyInterlaced = [KMSMode(width: 1920, height: 1080, refreshMilliHz: 60_000),
                              KMSMode(width: 1920, height: 1080, refreshMilliHz: 50_000, interlaced: true)]
        #expect(refresh(25, from: 0, in: onlyInterlaced) == nil)
    }

    @Test func noRateIsNoChange() {
        for rate in [0, -25, 5, 500, .infinity, .nan] {
            #expect(refresh(rate, from: 0, in: Self.tv) == nil, "\(rate)")
        }
    }
}

@Suite struct PictureRateMeterTests {
    @Test func theMedianGapOnceATune() {
        var meter = PictureRateMeter()
        var told: [Double] = []
        // 50 pictures a second, one dropped, one gap of a discontinuity.
        let times = [0.0, 0.02, 0.04, 0.08, 0.10, 3.0, 3.02, 3.04, 3.06, 3.08, 3.10, 3.12, 3.14]
        for time in times { if let rate = meter.add(time) { told.append(rate) } }
        #expect(told.count == 1)
        #expect(abs((told.first ?? 0) - 50) < 0.01)
        meter.reset()
        #expect(meter.add(1) == nil)
        for (index, time) in stride(from: 1.0, to: 2, by: 1.001 / 30).enumerated() where index > 0 {
            if let rate = meter.add(time) { #expect(abs(rate - 29.97) < 0.01) }
        }
    }
}
