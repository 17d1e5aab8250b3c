import FilterKit
import MediaKit

/// The recorder takes every source frame of a running recording, filtered or as the source gave
/// it (`record`'s `filtered`); never a placeholder or a re-render (a paused recording holds).
extension Recorder: FrameOutput {
    func demand(now: ContinuousClock.Instant) -> OutputDemand {
        let (source, filtered) = (wants(filtered: false), wants(filtered: true))
        return OutputDemand(source: source, filtered: filtered, isActive: source || filtered)
    }

    func take(_ frame: Frame, _ context: FrameContext) {
        record(frame, filtered: context.kind == .filtered)
    }
}
