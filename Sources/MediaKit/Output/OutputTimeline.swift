import FilterKit

/// Where the pictures of a recording or a published stream go on the stream's own timeline: from
/// the source's presentation times, not from when they happened to be offered, so a 25 fps file
/// is written in steady 40 ms steps and a live input at its capture times. Pure; one thread.
///
/// The stream's time starts at 0 with the first picture and only moves forward:
/// - a picture that follows the one before on the source's clock (later by at most
///   ``longestStep``, no restart flag) keeps its distance from it: `source + offset`;
/// - the same picture again (a paused session's held picture, a re-render of it, a still refined)
///   comes whole frame intervals after the last, as many as have passed on the writer's clock
///   (`wall`), at least one — a pause lasts in the stream as long as it lasted, on the grid;
/// - anything else — a loop back to the start, a seek, a source switch, a restart flag, playing
///   again after a held picture — starts a new stretch one frame interval after the last picture
///   (a cut, as a camera's recording shows it), or after as many whole intervals as passed when
///   that was ``pauseGap`` or more (a stall, a pause without held pictures).
public struct OutputTimeline: Sendable {
    /// A source's step forward longer than this is a jump (a seek forward), not the next picture.
    public static let longestStep = 1.0
    /// A wait on the writer's clock this long or longer before a new stretch stays in the stream.
    public static let pauseGap = 0.5
    /// One frame interval of the stream, seconds.
    public let interval: Double
    private var offset = 0.0
    private var last: (source: Double, output: Double, wall: Double)?

    /// A timeline for a stream of `frameRate` pictures a second (at least 1).
    public init(frameRate: Double) {
        interval = 1 / max(frameRate, 1)
    }

    /// The stream time of the picture of source time `source` (seconds), written at `wall`
    /// seconds of the writer's clock; `restart`: the source flagged it as a jump.
    public mutating func place(source: Double, wall: Double, restart: Bool = false) -> Double {
        guard let previous = last else {
            offset = -source
            last = (source, 0, wall)
            return 0
        }
        let step = source - previous.source
        let output: Double
        if !restart, step > Self.tolerance, step <= Self.longestStep, source + offset > previous.output + Self.tolerance {
            output = source + offset
        } else if !restart, abs(step) <= Self.tolerance {
            return repeatLast(wall: wall)
        } else {
            let gap = wall - previous.wall
            output = previous.output + interval * (gap >= Self.pauseGap ? Self.intervals(in: gap, of: interval) : 1)
            offset = output - source
        }
        last = (source, output, wall)
        return output
    }

    /// The stream time of the last picture written again at `wall` (a held picture, a keep-alive):
    /// whole frame intervals after the last, as many as passed since it, at least one.
    public mutating func repeatLast(wall: Double) -> Double {
        guard let previous = last else { return place(source: 0, wall: wall) }
        let output = previous.output + interval * Self.intervals(in: wall - previous.wall, of: interval)
        last = (previous.source, output, wall)
        return output
    }

    /// Whether no picture was placed yet.
    public var isEmpty: Bool { last == nil }

    /// Less than any frame interval: times closer than this are the same time.
    static let tolerance = 0.0005

    private static func intervals(in gap: Double, of interval: Double) -> Double {
        max(1, (gap / interval).rounded())
    }
}

extension OutputTimeline {
    /// The writer's thread: the stream time of `frame` (its `time` the source's, its
    /// `isDiscontinuity` the source's restart flag), written at `wall`; `repeated`: the last
    /// picture written again. A new picture's source time and stream time are noted in `sound`,
    /// which puts the sound where its pictures are.
    mutating func stamp(_ frame: Frame, repeated: Bool, wall: Double, sound: SoundTrack?) -> Double {
        if repeated { return repeatLast(wall: wall) }
        let time = place(source: frame.time, wall: wall, restart: frame.isDiscontinuity)
        _ = sound?.note(source: frame.time, at: time)
        return time
    }
}
