import FilterKit
import MediaKit

/// The recorder takes every source frame of a running recording, filtered or as the source gave
/// it (`record`'s `filtered`), and the re-renders while paused (a recording started or re-filtered
/// while paused records the picture it holds); never a placeholder. A recording that shares a
/// rendition's encode (`--record-rendition`) takes none: the rendition has them.
extension Recorder: FrameOutput {
    func demand(now: ContinuousClock.Instant) -> OutputDemand {
        let (source, filtered) = (wants(filtered: false), wants(filtered: true))
        return OutputDemand(source: source, filtered: filtered, rerender: source || filtered, isActive: source || filtered)
    }

    func take(_ frame: Frame, _ context: FrameContext) {
        record(frame, filtered: context.isFiltered)
    }
}
