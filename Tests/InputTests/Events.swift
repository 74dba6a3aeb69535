import ZapperCore
import ZapperInput

/// An input_event given by the kernel's names, as a device would send it.
func ev(_ type: String, _ code: String, _ value: Int32, at time: Double = 0) -> InputEventRecord {
    guard let record = InputEventRecord(type, code, value, time: time) else {
        fatalError("libevdev does not know \(type) \(code)")
    }
    return record
}

func key(_ code: String, _ value: Int32, at time: Double = 0) -> InputEventRecord { ev("EV_KEY", code, value, at: time) }
func axis(_ code: String, _ value: Int32, at time: Double = 0) -> InputEventRecord { ev("EV_ABS", code, value, at: time) }
func syn(at time: Double = 0) -> InputEventRecord { ev("EV_SYN", "SYN_REPORT", 0, at: time) }

func press(_ name: String, _ device: String) -> KeyEvent { KeyEvent(name: name, kind: .press, device: device) }
func release(_ name: String, _ device: String) -> KeyEvent { KeyEvent(name: name, kind: .release, device: device) }
