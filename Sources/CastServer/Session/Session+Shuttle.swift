import CastProtocol
import MediaKit

/// Review playback (issue 39): `speed` (forward and backward, the sound kept in pitch where
/// ``PlaybackRate`` says it plays) and `loop` (in/out). The shared playhead's: every viewer sees
/// the same.
extension Session {
    /// Plays at `rate` from now on (paused: when playing again). A live source plays at its own
    /// pace: only 1 is accepted there.
    func setSpeed(_ rate: PlaybackRate) throws(ProtocolError) {
        let source = sourceState.withLock { $0 }
        guard source.seekable || rate == .normal else {
            throw ProtocolError(code: .notSeekable, message: "\(source.name) is live: it plays at its own pace (speed 1 only)")
        }
        player.setRate(rate.value, soundTempo: rate.hasSound ? rate.value : nil)
    }

    /// The playhead's rate now.
    var rate: PlaybackRate {
        PlaybackRate(player.playbackState.speed) ?? .normal
    }

    /// `play`: playing backward from the first frame (where reverse stopped) plays forward at 1×.
    func playForwardFromTheStart() {
        let playback = player.playbackState
        guard playback.speed < 0, playback.position * player.info.numberingRate < 0.5 else { return }
        player.setRate(1, soundTempo: 1)
    }

    /// Loops `range` (checked within the source), or ends the loop (nil). A live source has no
    /// range to loop.
    func setLoop(_ range: LoopRange?) throws(ProtocolError) {
        guard let range else { return player.setLoop(nil) }
        let source = sourceState.withLock { $0 }
        guard source.seekable else {
            throw ProtocolError(code: .notSeekable, message: "\(source.name) is live and cannot loop")
        }
        let checked = try range.checked(within: player.playbackState.duration)
        player.setLoop(checked.in...checked.out)
    }

    /// The loop as the state tells it.
    var loopRange: LoopRange? {
        player.playbackState.loop.flatMap { LoopRange(in: $0.lowerBound, out: $0.upperBound) }
    }

    /// A seek or a step that lands outside the loop ends it (the reviewer went elsewhere); one
    /// inside keeps it.
    func endLoop(unlessContaining target: Double) {
        guard let range = loopRange, !range.contains(target) else { return }
        player.setLoop(nil)
    }
}
