/// The display's refresh following the content (`[display] match-frame-rate`): 50 Hz
/// broadcast on a 60 Hz mode judders (every fifth picture shown twice), as TVs and boxes
/// that switch their mode to the content's family know.
///
/// The rules:
/// - Only modes of the current mode's size, progressive, are candidates.
/// - A refresh fits a picture rate when it is a whole multiple of it (1 to 4 times) within
///   0.05 % (so 24 and 23.976 are two): 50 Hz fits 25 and 50, 59.94 fits 29.97 and 59.94, 23.976 fits 23.976, 60 fits 30 and 60.
/// - When the current mode fits already, nothing changes (channels of one family, no switch).
/// - Otherwise the fitting refresh from 48 to 61 Hz that is lowest wins (25 fps plays at 50,
///   not 25 or 100); when none fits there, the highest fitting one below (24 Hz for film); the
///   mode the display prefers breaks a tie. None fits: nothing changes.
/// - A picture rate that is no rate a picture has (outside 10 to 121 a second) changes nothing.
public enum RefreshMatch {
    public static let pictureRates = 10.0...121.0
    static let tolerance = 0.0005
    static let comfortable = 48.0...61.0

    /// The index in `offered` of the mode to switch to, nil to keep `current`.
    public static func mode(for pictureRate: Double, current: KMSMode, offered: [KMSMode]) -> Int? {
        guard pictureRate.isFinite, pictureRates.contains(pictureRate), !fits(current, pictureRate) else { return nil }
        let candidates = offered.indices.filter { index in
            let mode = offered[index]
            return mode.width == current.width && mode.height == current.height && !mode.interlaced && fits(mode, pictureRate)
        }
        func better(_ a: Int, _ b: Int) -> Bool {
            let (x, y) = (offered[a], offered[b])
            if x.refreshMilliHz != y.refreshMilliHz {
                let (inX, inY) = (comfortable.contains(x.refreshHz), comfortable.contains(y.refreshHz))
                if inX != inY { return inX }
                return inX ? x.refreshMilliHz < y.refreshMilliHz : x.refreshMilliHz > y.refreshMilliHz
            }
            return x.preferred && !y.preferred
        }
        return candidates.min(by: better)
    }

    static func fits(_ mode: KMSMode, _ rate: Double) -> Bool {
        guard mode.refreshMilliHz > 0 else { return false }
        let ratio = mode.refreshHz / rate
        let multiple = ratio.rounded()
        return (1...4).contains(multiple) && abs(ratio - multiple) / multiple <= tolerance
    }
}
