import FilterKit

/// What the viewers' outputs (the JPEG stream, each H.264 rendition) share: when they want a
/// frame, and which frame carries the state-changed flag. Processing thread only.
///
/// They want filtered frames while their audience is not empty, at most one per `--max-fps`
/// interval, plus the paused re-renders and the placeholder. The first frame made after a
/// change — a seek or switch (the frame's discontinuity), a filter (its generation), play or
/// pause (the transport generation), going offline or back — is marked.
struct ViewerPacing {
    private let minimumInterval: Duration?
    private var lastEncode: ContinuousClock.Instant?
    /// What the last frame taken was made with.
    private var rendered = (filter: -1, transport: -1, online: true)

    /// `maxFPS`: `--max-fps` (nil: every source frame).
    init(maxFPS: Double?) {
        minimumInterval = maxFPS.map(Duration.frameInterval(perSecond:))
    }

    /// The demand of an output whose audience is `audience`.
    func demand(audience: Int, now: ContinuousClock.Instant) -> OutputDemand {
        guard audience > 0 else { return OutputDemand(declines: .noAudience) }
        let due = minimumInterval.map { interval in lastEncode.map { $0.duration(to: now) >= interval } ?? true } ?? true
        return OutputDemand(filtered: due, placeholder: true, rerender: true, isActive: true, declines: due ? nil : .maximumRate)
    }

    /// Notes that `frame` is taken now; returns whether it is the first after a change, given the
    /// session's transport generation `transport`.
    mutating func take(_ frame: Frame, _ context: FrameContext, transport: Int, now: ContinuousClock.Instant) -> Bool {
        if context.kind == .new { lastEncode = now }
        let current = (filter: context.filterGeneration, transport: transport, online: context.kind != .placeholder)
        defer { rendered = current }
        return frame.isDiscontinuity || current != rendered
    }
}
