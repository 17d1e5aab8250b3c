import Foundation

/// A shared camera's pictures wait for its microphone's sound, as a live stream's wait for theirs
/// (`Decoder.readSoundAhead`): a page plays a sound packet at its picture's time only when the
/// packet reaches it well before the picture is drawn (its decode, the output's latency: ~40 ms
/// in Chromium), and the microphone's packets leave the sharer ~20 ms after the pictures of the
/// same moment (the page's encoder gathers 20 ms into a packet and looks ahead: measured 25 ms
/// after capture, pictures 4–8 ms), then cost the server's transcode (another 20 ms packet).
/// Unheld, a listener heard the camera's sound 18–43 ms after its picture on this machine, and
/// 108–126 ms when it was busy (the audio thread waits its turn; the pictures were not late).
///
/// Only while pages play the sound (not for a recording or a published stream alone: they put
/// late sound in its place themselves), and never for a microphone silent for half a second (its
/// track ended, the sharer's slow link skips its sound). A wait ends early when ``hurryBacklog``
/// pictures wait behind it (``hurry``), short of the queue's ``queueCapacity``, whose overflow
/// would drop them all and wait for a keyframe: the usual hold (~120 ms) is 4 pictures at 30 fps,
/// 7–8 at 60, the sharers' limit.
extension BrowserSource {
    /// How far past a picture's capture time (µs) its sound must have come before the picture is
    /// given out: what the sound still needs after the server, beyond the picture's own way.
    static let soundLead: Int64 = 100_000
    /// The longest a picture waits for its sound after it came, by default: a microphone that
    /// stalls delays the pictures by at most that much, never stops them.
    public static let maximumSoundWait = Duration.milliseconds(200)

    /// Waits, while pages play the microphone, until its sound `soundLead` past the picture
    /// captured at `captureTime` has come, or `soundWait` after the picture came.
    func waitForSound(of captureTime: Int64, queuedAt: ContinuousClock.Instant) {
        audio?.waitForSound(capturedAt: captureTime &+ Self.soundLead, until: queuedAt + soundWait)
    }

    /// Pictures waiting behind a wait for sound that end it.
    static let hurryBacklog = queueCapacity - 4

    /// After a picture is queued: when ``hurryBacklog`` wait, a wait for sound ends.
    func hurryWhenBackedUp() {
        if let audio, queuedCount >= Self.hurryBacklog { audio.hurry() }
    }
}
