import FilterKit

/// What the style network reaches on this machine: the height it runs at and one run's time
/// there, measured alone (no frame beside it) when that height was chosen — by the calibration
/// at start, or by a move with the load (``StyleHeightChooser``). Beside the picture the style
/// refreshes at most once a run: ``refreshHz``. Where even the smallest height is slow, that is
/// a low rate, never a stall: the picture moves at the source's rate and the style lags.
public struct StyleCalibration: Sendable, Equatable {
    /// The network's height, in lines.
    public let lines: Int
    /// One run's time at ``lines``: the faster of two after a first (slow) run.
    public let run: Duration

    /// The style's refreshes a second at most: one a run, to one decimal.
    public var refreshHz: Double { (10 / run.seconds).rounded() / 10 }

    /// The run's time in milliseconds, to one decimal.
    public var runMilliseconds: Double { (run.seconds * 10_000).rounded() / 10 }
}
