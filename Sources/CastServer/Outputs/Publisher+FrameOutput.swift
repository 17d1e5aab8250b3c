import FilterKit
import MediaKit

/// The publisher (`--publish`) takes every filtered frame whether or not anybody watches here,
/// the placeholder while the source is offline, and re-renders while paused (the pushed stream
/// repeats its last frame, so a filter change shows there too) — unless it shares a rendition's
/// encode (`--publish-rendition`), whose frames that rendition takes.
extension Publisher: FrameOutput {
    func demand(now: ContinuousClock.Instant) -> OutputDemand {
        guard !isSharing else { return .none }
        return OutputDemand(filtered: true, placeholder: true, rerender: true, isActive: true)
    }

    func take(_ frame: Frame, _ context: FrameContext) {
        publish(frame)
    }
}
