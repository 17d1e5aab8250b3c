@testable import MediaKit
import Testing

/// Where a recording's or a published stream's pictures go: from the source's clock, on one
/// continuous, strictly increasing timeline — whatever the jitter of when they were written.
@Suite struct OutputTimelineTests {
    /// A 25 fps file's pictures written with the jitter of a busy machine (what the stream was
    /// stamped with before: 608–656 ticks of 1/16000 a step, r_frame_rate 151/6).
    @Test func aFilesPicturesKeepTheirStepsWhateverTheWriterClockSays() {
        var timeline = OutputTimeline(frameRate: 25)
        let jitter = [0.0, 0.003, -0.002, 0.001, 0.0, -0.004, 0.002]
        let times = (0..<7).map { timeline.place(source: 3.0 + Double($0) * 0.04, wall: Double($0) * 0.04 + jitter[$0]) }
        #expect(steps(times) == Array(repeating: 40, count: 6), "\(times)")
        #expect(times.first == 0)
    }

    @Test func aLiveInputKeepsItsCaptureTimes() {
        var timeline = OutputTimeline(frameRate: 30)
        let captured = [100.0, 100.031, 100.068, 100.101, 100.135]
        let times = captured.enumerated().map { timeline.place(source: $1, wall: Double($0) * 0.05) }
        #expect(steps(times) == [31, 37, 33, 34])
    }

    /// The loop point: the file starts again at 0; the stream goes on one interval later (was 14 ms).
    @Test func aLoopContinuesOneIntervalAfterTheLastPicture() {
        var timeline = OutputTimeline(frameRate: 25)
        let times = [9.88, 9.92, 9.96, 0.0, 0.04, 0.08].enumerated().map {
            timeline.place(source: $1, wall: Double($0) * 0.04 + 0.01)
        }
        #expect(steps(times) == [40, 40, 40, 40, 40])
    }

    @Test func aSeekEitherWayIsACutOneIntervalLater() {
        var timeline = OutputTimeline(frameRate: 25)
        var times = [1.0, 1.04].map { timeline.place(source: $0, wall: $0) }
        times.append(timeline.place(source: 7.0, wall: 1.2, restart: true))  // forward, flagged
        times.append(timeline.place(source: 7.04, wall: 1.24))
        times.append(timeline.place(source: 2.0, wall: 1.3))  // back
        times.append(timeline.place(source: 30.0, wall: 1.34))  // far forward, unflagged
        #expect(steps(times) == [40, 40, 40, 40, 40])
    }

    /// A paused recording writes the held picture every interval; playing again continues after it.
    @Test func heldPicturesFillThePauseOnTheGridAndPlayingAgainFollowsThem() {
        var timeline = OutputTimeline(frameRate: 25)
        var times = [5.0, 5.04].map { timeline.place(source: $0, wall: $0 - 5) }
        // Held: the first after two intervals without a frame, then one every interval (late, too).
        for wall in [0.12, 0.161, 0.199, 0.245] { times.append(timeline.repeatLast(wall: wall)) }
        times.append(timeline.place(source: 5.08, wall: 0.27))
        times.append(timeline.place(source: 5.12, wall: 0.31))
        #expect(steps(times) == [40, 80, 40, 40, 40, 40, 40])
    }

    /// A paused shared stream gets the held picture's keyframe once a second: the pause stays.
    @Test func theSamePictureAgainComesAsManyIntervalsLaterAsPassed() {
        var timeline = OutputTimeline(frameRate: 25)
        var times = [timeline.place(source: 2.0, wall: 0)]
        times.append(timeline.place(source: 2.0, wall: 1.003))
        times.append(timeline.place(source: 2.0, wall: 2.01))
        #expect(steps(times) == [1000, 1000])
    }

    /// A live input that stalls, or a switch after a long wait: the wait stays, on the grid.
    @Test func aLongWaitBeforeANewStretchStaysInTheStream() {
        var timeline = OutputTimeline(frameRate: 25)
        var times = [timeline.place(source: 0, wall: 0)]
        times.append(timeline.place(source: 50, wall: 3.01))  // another source, 3 s later
        times.append(timeline.place(source: 50.04, wall: 3.05))
        #expect(steps(times) == [3000, 40])
    }

    @Test func timesNeverGoBackOrRepeat() {
        var timeline = OutputTimeline(frameRate: 30)
        var times: [Double] = []
        var wall = 0.0
        for source in [0.0, 0.033, 0.033, 0.02, 0.5, 0.49, 0.0, 2.0, 1.999, 2.0] {
            wall += 0.01
            times.append(timeline.place(source: source, wall: wall))
        }
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 > $0 }, "\(times)")
    }

    /// Steps in whole milliseconds (as the writer takes them).
    private func steps(_ times: [Double]) -> [Int] {
        zip(times, times.dropFirst()).map { Int((($1 - $0) * 1000).rounded()) }
    }
}
