/// Keeps the style network's runs within their budget as the machine's load changes: the
/// calibration at start times the network on a quiet machine, but a page on the same cores, a
/// second viewer or a recording slow every run down, and a run past its budget makes the stream
/// drop frames. So the runs of each second are judged together and the network's height moves:
///
/// - down at once when their median is over ``over`` × the budget: to the largest height whose
///   cost, scaled by its pixels, fits the budget (the smallest when none does);
/// - up one height when the next larger one is predicted (by the same scaling) to fit
///   ``under`` × the budget, and the last step down is ``settle`` old: a load that comes and goes
///   would otherwise make the strokes' scale pump.
///
/// A change of height compiles a network (in the background: ``StyleEngine``) and starts the
/// link's steadying over, so the rules change it rarely. Pure: the caller gives the time.
struct StyleHeightChooser {
    /// Runs judged together: about a second of video.
    static let window = 24
    /// A median over the budget by this factor steps down.
    static let over = 1.25
    /// The next larger height is taken when predicted under the budget by this factor.
    static let under = 0.85
    /// How long after a step down no step up is taken.
    static let settle: Duration = .seconds(20)

    /// The heights chosen among, largest first.
    let heights: [Int]
    let budget: Duration
    /// The runs at the current height since the last judgment (capacity ``window``, reused).
    private var runs: [Duration] = []
    private var steppedDown: ContinuousClock.Instant?

    init(heights: [Int], budget: Duration) {
        precondition(!heights.isEmpty && heights == heights.sorted(by: >), "heights \(heights)")
        self.heights = heights
        self.budget = budget
        runs.reserveCapacity(Self.window)
    }

    /// A height to move to, and the median of the second's runs that called for it.
    struct Move: Equatable {
        let height: Int
        let median: Duration
    }

    /// Notes a network run of `duration` at `height` at `now`; the height to move to when a
    /// second's runs call for one. Runs at a height not among ``heights`` (a frame smaller than the
    /// network) are not judged.
    mutating func note(_ duration: Duration, at height: Int, now: ContinuousClock.Instant) -> Move? {
        guard let index = heights.firstIndex(of: height) else { return nil }
        runs.append(duration)
        guard runs.count >= Self.window else { return nil }
        runs.sort()
        let median = runs[runs.count / 2]
        runs.removeAll(keepingCapacity: true)
        if median > budget * Self.over, index < heights.count - 1 {
            steppedDown = now
            let fits = heights[(index + 1)...].first { cost(median, from: height, to: $0) <= budget }
            return Move(height: fits ?? heights[heights.count - 1], median: median)
        }
        guard index > 0, steppedDown.map({ now - $0 >= Self.settle }) ?? true else { return nil }
        let larger = heights[index - 1]
        return cost(median, from: height, to: larger) <= budget * Self.under ? Move(height: larger, median: median) : nil
    }

    /// A run of `duration` at `height` lines, scaled to `other` lines by the pixels.
    private func cost(_ duration: Duration, from height: Int, to other: Int) -> Duration {
        duration * (Double(other * other) / Double(height * height))
    }

    /// Forgets the runs noted so far (the height changed: they were another network's).
    mutating func restart() {
        runs.removeAll(keepingCapacity: true)
    }
}
