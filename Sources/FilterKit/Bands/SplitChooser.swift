/// Decides, for one filter of a chain, whether its frames are split over several threads, by
/// timing both ways on real frames: a trial of ``trialFrames`` frames each way, alternating so
/// that both meet the same load, then the faster way for ``decidedFrames`` frames, then another
/// trial, since the load of the machine changes.
///
/// Splitting pays for heavy filters; a light one (a colour filter at half a millisecond) can lose
/// more waiting for a thread on a core busy decoding than it saves. Each trial drops its slowest
/// frame, so that a one-off cost (tables built on a first frame) does not decide, and splitting
/// must win by ``requiredGain`` (it is the riskier way: its time depends on another core).
struct SplitChooser {
    static let trialFrames = 12
    static let decidedFrames = 300
    static let requiredGain = 0.9

    private var frame = 0
    /// Seconds summed over each trial, and each trial's slowest frame.
    private var whole = (sum: 0.0, slowest: 0.0)
    private var split = (sum: 0.0, slowest: 0.0)
    private var splitsWhenDecided = false

    init() {}

    /// Whether the next frame is to be split.
    var splitsNext: Bool {
        frame < 2 * Self.trialFrames ? frame % 2 == 1 : splitsWhenDecided
    }

    /// Records how long the frame that ``splitsNext`` chose took.
    mutating func record(seconds: Double) {
        if frame < 2 * Self.trialFrames {
            if frame % 2 == 1 {
                split = (split.sum + seconds, max(split.slowest, seconds))
            } else {
                whole = (whole.sum + seconds, max(whole.slowest, seconds))
            }
        }
        frame += 1
        if frame == 2 * Self.trialFrames {
            splitsWhenDecided = split.sum - split.slowest < (whole.sum - whole.slowest) * Self.requiredGain
        } else if frame == 2 * Self.trialFrames + Self.decidedFrames {
            self = SplitChooser()
        }
    }
}
