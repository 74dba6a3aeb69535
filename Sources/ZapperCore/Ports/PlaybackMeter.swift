/// What the frame loop and the audio thread count as they play, for a fleet's metrics
/// (nil in `PlayerPorts`: nobody counts). Called on those threads at every picture and
/// every period of sound: each call must only take note and return.
public protocol PlaybackMeter: AnyObject, Sendable {
    /// A picture was presented: its time on the channel's timeline and the audio clock's
    /// time then (seconds), and how many pictures due before it were dropped unseen.
    func presented(pictureTime: Double, clock: Double, dropped: Int)
    /// The audio thread wrote silence in place of the playing channel's sound: none was decoded in time.
    func audioUnderrun()
}
