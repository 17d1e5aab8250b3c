import CastProtocol

/// What one output wants of the processing loop at this moment — asked once per turn of the
/// loop, on the processing thread, and answered from the output's own state.
struct OutputDemand: Equatable, Sendable {
    /// Wants the next source frame as the source gave it (an unfiltered recording).
    var source = false
    /// Wants the next source frame after the filter.
    var filtered = false
    /// Shows a second picture instead of the program: the frames it wants (`filtered`, new or
    /// re-rendered) are the kept source frame through the preview's chain (studio mode: only
    /// while the loop keeps up) or as it is (the source's picture), made after the program's
    /// outputs are served. Nil: the program.
    var second: SecondPicture?
    /// Wants the "NO SIGNAL" placeholder while the source is offline.
    var placeholder = false
    /// Wants the last frame again when it was asked for while no frame comes (a filter change or
    /// a newcomer while paused): as the source gave it when `source`, else filtered.
    var rerender = false
    /// Consumes frames at all: while no output does, the player need not decode a file.
    var isActive = false
    /// Active only for snapshots waiting (``ViewerStream/snapshotsWaiting``): it takes the frames
    /// of an open live input but keeps none open (``Player/setConsumersPresent(_:holdingLiveInput:)``).
    var onlySnapshots = false
    /// Why an active output passes on the next frame (counted in `/metrics`).
    var declines: Decline?

    /// Why an output that is there passes on a frame.
    enum Decline: Equatable, Sendable {
        /// Nobody watches (the viewers' output with no viewer).
        case noAudience
        /// `--max-fps`: the last frame went out less than one interval ago.
        case maximumRate
    }

    /// Wants nothing.
    static let none = OutputDemand()

    /// This demand, of an output that shows `second` (nil: the program).
    func of(_ second: SecondPicture?) -> OutputDemand {
        var demand = self
        demand.second = second
        return demand
    }

    /// This demand, of an output that shows the preview's chain.
    var ofPreview: OutputDemand { of(.preview) }
}
