extension VideoWriter.Destination {
    /// This destination for a writer that takes `sound` (nil: none): with an audio stream then,
    /// and the track starts over with this writer (its first picture). On the writer's thread,
    /// before each connection — a published stream's reconnections, a shared recording's one.
    func startingTrack(_ sound: SoundTrack?) -> Self {
        var destination = self
        destination.hasAudio = sound != nil
        sound?.restart()
        return destination
    }
}
