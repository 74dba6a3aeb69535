import Foundation
import Synchronization
import ZapperCore
import ZapperDisplay

// kms-check [--drm-device PATH] [--connector NAME] [--mode WxH[@Hz]] [--frames N] [--hold SECONDS]
//           [--vt-switch yes]
// Opens the KMS display the way zapper does, flips N frames of a test picture
// (colour bars and a moving white bar), reports the flip intervals, shows a final
// still frame for --hold seconds (for a screendump), then hands the screen back.

/// Unbuffered, so a serial console shows each line as it happens.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("kms-check: \(message)\n".utf8))
    exit(1)
}

var options = KMSDisplay.Options()
var frames = 120
var hold = 0.0
var vtSwitch = false
/// Set by the VT release/acquire signals, acted on by the main loop.
let releaseRequested = Atomic<Bool>(false)
let acquireRequested = Atomic<Bool>(false)
var arguments = CommandLine.arguments.dropFirst()
while let name = arguments.popFirst() {
    guard let value = arguments.popFirst() else { fail("\(name) needs a value") }
    switch name {
    case "--drm-device": options.device = value
    case "--connector": options.connector = value
    case "--mode":
        do { options.mode = try ModeRequest.parse(value) } catch { fail("\(error)") }
    case "--frames": frames = Int(value) ?? frames
    case "--hold": hold = Double(value) ?? hold
    case "--vt-switch": vtSwitch = value == "yes"
    default: fail("unknown option \(name)")
    }
}

let display: KMSDisplay
do {
    display = try KMSDisplay(options: options) { say("kms-check: \($0)") }
} catch {
    fail("\(error)")
}

/// Eight vertical colour bars, a white bar at `position`, a black band at the bottom.
func draw(_ buffer: UnsafeMutableRawBufferPointer, on output: some FrameOutput, position: Int) {
    let colours: [UInt32] = [0xFFFFFF, 0xFFFF00, 0x00FFFF, 0x00FF00, 0xFF00FF, 0xFF0000, 0x0000FF, 0x000000]
    let width = output.width, height = output.height, stride = output.stride
    for y in 0..<height {
        let row = buffer.baseAddress!.advanced(by: y * stride).assumingMemoryBound(to: UInt32.self)
        for x in 0..<width {
            var pixel = colours[x * 8 / width]
            if y >= height * 7 / 8 { pixel = 0x101010 }
            if abs(x - position) < 8 { pixel = 0xFFFFFF }
            row[x] = pixel
        }
    }
}

var times: [Double] = []
do {
    // First half: draw, present, wait. Second half: the next frame is drawn while the
    // flip is still pending (into the shadow buffer, copied at present()).
    var drawnAhead = false
    for frame in 0..<frames {
        if !drawnAhead { display.withDrawBuffer { draw($0, on: display, position: frame * 16 % display.width) } }
        try display.present()
        drawnAhead = frame >= frames / 2 && frame + 1 < frames
        if drawnAhead { display.withDrawBuffer { draw($0, on: display, position: (frame + 1) * 16 % display.width) } }
        guard let time = try display.waitForFlip(timeoutMilliseconds: 1000) else { fail("no page flip within 1 s") }
        times.append(time)
    }
    display.withDrawBuffer { draw($0, on: display, position: -100) }
    try display.present()
    _ = try display.waitForFlip(timeoutMilliseconds: 1000)
} catch {
    display.restore()
    fail("\(error)")
}
let intervals = zip(times.dropFirst(), times).map { ($0 - $1) * 1000 }
if !intervals.isEmpty {
    let mean = intervals.reduce(0, +) / Double(intervals.count)
    let deviation = (intervals.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(intervals.count)).squareRoot()
    say(String(format: "kms-check: %d flips, interval mean %.2f ms, sd %.2f ms, min %.2f, max %.2f",
                 times.count, mean, deviation, intervals.min()!, intervals.max()!))
}
say("kms-check: SHOWING \(display.width)x\(display.height) stride \(display.stride)")
if vtSwitch {
    signal(SIGUSR1) { _ in releaseRequested.store(true, ordering: .relaxed) }
    signal(SIGUSR2) { _ in acquireRequested.store(true, ordering: .relaxed) }
    do { try display.terminal?.enableSwitchSignals(release: SIGUSR1, acquire: SIGUSR2) } catch { fail("\(error)") }
    say("kms-check: VT switching by signals on \(display.terminal?.path ?? "no VT")")
}
let end = Date().addingTimeInterval(hold)
while Date() < end {
    do {
        if releaseRequested.exchange(false, ordering: .relaxed) {
            try display.releaseForVTSwitch()
            say("kms-check: VT released")
        }
        if acquireRequested.exchange(false, ordering: .relaxed) {
            try display.acquireAfterVTSwitch()
            say("kms-check: VT acquired, \(display.width)x\(display.height) back on screen")
        }
    } catch {
        display.restore()
        fail("\(error)")
    }
    Thread.sleep(forTimeInterval: 0.05)
}
display.restore()
say("kms-check: OK, screen handed back")
