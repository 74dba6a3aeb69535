import Testing
import ZapperCore

struct RepaintClockTests {
    @Test func drawingStartsAWindowBeforeTheNextVBlank() {
        var clock = RepaintClock(margin: 0.002)
        #expect(clock.nextDrawStart == nil)  // nothing known: at once
        for n in 0..<5 { clock.flipped(at: 10 + Double(n) / 60) }
        #expect(clock.nextDrawStart == nil)  // no draw measured yet
        clock.drew(seconds: 0.008)
        let last = 10 + 4.0 / 60
        #expect(abs((clock.period ?? 0) - 1.0 / 60) < 1e-9)
        #expect(abs((clock.nextDrawStart ?? 0) - (last + 1.0 / 60 - 0.010)) < 1e-9)
    }

    /// A turn that drew nothing sleeps until the draw start of a later vblank, on the same grid.
    @Test func theNextDrawStartAfterAnyTimeIsOnTheVBlanksGrid() {
        var clock = RepaintClock(margin: 0.002)
        #expect(clock.drawStart(after: 3) == nil)
        for n in 0..<5 { clock.flipped(at: 10 + Double(n) / 60) }
        clock.drew(seconds: 0.004)
        let first = 10 + 5.0 / 60 - 0.006
        #expect(abs((clock.drawStart(after: 10) ?? 0) - first) < 1e-9)
        #expect(abs((clock.drawStart(after: first) ?? 0) - (first + 1.0 / 60)) < 1e-9)
        #expect(abs((clock.drawStart(after: first + 2.5 / 60) ?? 0) - (first + 3.0 / 60)) < 1e-9)
    }

    @Test func skippedFlipsDoNotLengthenThePeriod() {
        var clock = RepaintClock()
        for vblank in [0, 1, 3, 4, 7] { clock.flipped(at: Double(vblank) / 60) }
        #expect(abs((clock.period ?? 0) - 1.0 / 60) < 1e-9)
    }

    @Test func aSlowMachineDrawsAtOnce() {
        var clock = RepaintClock()
        for n in 0..<3 { clock.flipped(at: Double(n) * 0.275) }  // QEMU without KVM
        clock.drew(seconds: 0.3)
        #expect(clock.nextDrawStart == nil)
    }

    @Test func oneSlowTurnDoesNotWidenTheWindow() {
        var clock = RepaintClock(margin: 0)
        for _ in 0..<59 { clock.drew(seconds: 0.005) }
        clock.drew(seconds: 0.2)  // a snapshot written
        #expect(clock.window == 0.005)
        for _ in 0..<5 { clock.drew(seconds: 0.2) }
        #expect(clock.window == 0.2)
    }

    @Test func aClockThatGoesBackStartsOver() {
        var clock = RepaintClock()
        clock.flipped(at: 5)
        clock.flipped(at: 5 + 1.0 / 60)
        clock.flipped(at: 1)
        #expect(clock.period == nil)
    }
}
