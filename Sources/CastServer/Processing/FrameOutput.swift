import FilterKit

/// A consumer of the session's frames: the viewers' JPEG stream, the recorder, the publisher,
/// and whatever comes next. The processing loop asks every output what it wants
/// (``demand(now:)``), decides once for all of them (``FramePlan``), filters at most once, and
/// hands each output the frame it asked for.
///
/// Contract: both calls come from the processing thread only. `demand` answers from the
/// output's own state, cheaply. `take` never blocks: the frame is lent for the call, so the
/// output encodes or copies it and returns (a slow consumer drops its own frames, never the
/// loop's).
protocol FrameOutput: AnyObject {
    func demand(now: ContinuousClock.Instant) -> OutputDemand
    func take(_ frame: Frame, _ context: FrameContext)
}

/// What a frame handed to an output is.
struct FrameContext: Sendable {
    enum Kind: Equatable, Sendable {
        /// A new source frame.
        case new
        /// The last source frame again (paused: a change or a newcomer to show).
        case rerender
        /// The "NO SIGNAL" placeholder (never filtered).
        case placeholder
    }

    var kind: Kind
    /// Whether the filter chain was applied to it.
    var isFiltered: Bool
    /// The filter chain generation the frame was made with (``FilterRunner/appliedGeneration``).
    var filterGeneration: Int
}
