@testable import CastServer
@testable import MediaKit
import Testing

/// The NO SIGNAL countdown: the picture's "retrying in N s" and the page's badge (which counts
/// down from `state.retryIn`) read one clock, and change at the same instants.
@Suite struct RetryCountdownTests {
    let start = ContinuousClock.now

    @Test func secondsLeftRoundedUpChangingAtWholeSecondsBeforeTheAttempt() {
        let countdown = RetryCountdown(retryAt: start + .milliseconds(7300))
        #expect(countdown.shown(at: start) == 8)
        #expect(countdown.nextChange(after: start) == start + .milliseconds(300))
        #expect(countdown.shown(at: start + .milliseconds(300)) == 7)
        #expect(countdown.nextChange(after: start + .milliseconds(300)) == start + .milliseconds(1300))
        #expect(countdown.shown(at: start + .milliseconds(7300)) == 0 && countdown.remaining(at: start + .seconds(9)) == 0)
        #expect(countdown.nextChange(after: start + .milliseconds(7300)) == nil)
    }

    /// The source drops at `start`, the next attempt 7.3 s later; placeholders are drawn when
    /// due. At every moment the picture last drawn says what the badge says then.
    @Test func thePictureAndTheBadgeAgreeAtEveryMoment() {
        let retryAt = start + .milliseconds(7300)
        var playback = PlaybackState(isLive: true, speed: 1)
        playback.isOnline = false
        playback.retryAt = retryAt
        var due = start
        var picture: [String] = []
        var disagreements: [String] = []
        for step in 0..<145 {
            let now = start + .milliseconds(step * 50)
            if now >= due {
                picture = ProcessingTurn.placeholderDetails(playback, reason: "no frame for 1 s", now: now)
                due = ProcessingTurn.nextPlaceholder(after: now, retryAt: retryAt)
            }
            let badge = Int(RetryCountdown(retryAt: retryAt).remaining(at: now).rounded(.up))
            if picture.last != "retrying in \(badge) s" { disagreements.append("\(step * 50) ms: \(picture.last!) / \(badge) s") }
        }
        #expect(disagreements.isEmpty, "\(disagreements)")
    }

    @Test func withoutACountdownThePlaceholderComesOnceASecond() {
        #expect(ProcessingTurn.nextPlaceholder(after: start, retryAt: nil) == start + .seconds(1))
    }
}
