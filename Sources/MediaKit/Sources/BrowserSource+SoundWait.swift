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
/// Only while somebody listens: a camera without a microphone, or whose sound nobody listens to,
/// keeps its shortest round trip.
extension BrowserSource {
    /// How far past a picture's capture time (µs) its sound must have come before the picture is
    /// given out: what the sound still needs after the server, beyond the picture's own way.
    static let soundLead: Int64 = 100_000
    /// The longest a picture waits for its sound after it came (s): a microphone that stalls (a
    /// slow link skips its sound) delays the pictures by that much, never stops them — six
    /// pictures at 30 fps, within the ``queueCapacity`` that may wait behind it.
    static let maximumSoundWait = 0.2

    /// Waits, while somebody listens to the microphone, until its sound `soundLead` past the
    /// picture captured at `captureTime` has come, or `maximumSoundWait` after the picture came.
    func waitForSound(of captureTime: Int64, queuedAt: Date) {
        audio?.waitForSound(capturedAt: captureTime &+ Self.soundLead, until: queuedAt + Self.maximumSoundWait)
    }
}
