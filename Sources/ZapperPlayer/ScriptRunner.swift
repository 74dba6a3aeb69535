import ZapperCore

/// Carries out an automation script one step per tick. Key
/// presses go to the player as if from a device: through the same keymap
/// and state machine. A `wait-event` sees the events logged since the last
/// waiting line (`wait`, `wait-event`, `hold`) ended, so it also sees what the
/// presses just before it caused at once (a PIN refused, say).
struct ScriptRunner {
    enum State { case running, quit, failed(String) }

    let lines: [ScriptLine]
    let log: EventLog
    private var index = 0
    private var lineStartedAt: Int?
    private var mark = 0
    private var holding = false

    init(lines: [ScriptLine], log: EventLog) {
        self.lines = lines
        self.log = log
    }

    /// When the line under way (a `wait`, a `hold`) ends, in log milliseconds: the loop wakes
    /// then, as it would for a device's key. Nil: no such line, or not begun.
    var nextDue: Int? {
        guard index < lines.count, let started = lineStartedAt else { return nil }
        switch lines[index].command {
        case .wait(let ms), .hold(_, let ms): return started + ms
        default: return nil
        }
    }

    /// `key` gets when each key was due (log milliseconds): a press right after a `wait`
    /// was due when the wait ended, which the loop only sees at its next turn, as it
    /// sees a device's key only then.
    mutating func step(snapshot: (String) throws -> Void, key: (String, KeyEvent.Kind, Int) -> Void) -> State {
        var due = log.now
        while index < lines.count {
            let line = lines[index]
            if lineStartedAt == nil { lineStartedAt = log.now }
            let elapsed = log.now - lineStartedAt!
            switch line.command {
            case .wait(let ms):
                guard elapsed >= ms else { return .running }
                due = lineStartedAt! + ms
            case .waitEvent(let name, let timeout):
                if log.first(name.rawValue, after: mark) == nil {
                    if elapsed >= timeout { return .failed("line \(line.line): no \(name.rawValue) event within \(timeout) ms") }
                    return .running
                }
            case .snapshot(let path):
                do {
                    try snapshot(path)
                } catch {
                    return .failed("line \(line.line): \(error)")
                }
            case .quit:
                return .quit
            case .press(let name):
                key(name, .press, due)
                key(name, .release, due)
            case .hold(let name, let ms):
                if !holding {
                    holding = true
                    key(name, .press, due)
                }
                guard elapsed >= ms else { return .running }
                holding = false
                key(name, .release, lineStartedAt! + ms)
            }
            switch line.command {
            case .wait, .waitEvent, .hold: mark = log.count
            default: break
            }
            index += 1
            lineStartedAt = nil
        }
        return .running
    }
}
