import Testing

/// The in-process behaviour suites (`Behaviour/`), run one at a time: each drives the player's
/// frame loop on the virtual clock synchronously, for seconds, on one of Swift's two cooperative
/// threads. Side by side they held both, and the async tests' real-time waits (an https fetch's
/// deadline, a logo's retry) queued behind them until their time limits ran out.
@Suite(.serialized) enum InProcess {}
