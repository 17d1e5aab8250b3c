extension VideoWriter {
    /// A new fragmented MP4 at `path` that is playable up to its last complete fragment at every
    /// moment: an empty `moov` first, then every second at most (a keyframe at least every second,
    /// `frag_duration` 1 s) a `moof`+`mdat` fragment, flushed as soon as it is complete, so a
    /// process killed mid-recording loses at most the fragment being gathered (≤ 1 s) — of the
    /// sound too, when `audio` (an AAC stream beside the video, in the same fragments).
    static func fragmentedMP4(path: String, width: Int, height: Int, frameRate: Double, preset: String,
                              threads: Int, audio: Bool = false, filter: String? = nil) throws(MediaError) -> VideoWriter {
        var destination = fragmentedMP4(path: path, fragmentAtKeyframes: true, filter: filter)
        destination.hasAudio = audio
        return try VideoWriter(destination: destination, width: width, height: height,
                        frameRate: frameRate, preset: preset, threads: threads, encoders: H264Encoder.recordingPreference)
    }

    /// Where a recording goes: fragments of at most a second, each flushed once complete — also
    /// at every keyframe when `fragmentAtKeyframes` (our own encode's keyframe a second; a shared
    /// rendition's come every 2 s, and a fragment need not start with one). `filter`: the filter
    /// a filtered recording was made with, named in its metadata (``MediaProbe/summary(of:)``).
    static func fragmentedMP4(path: String, fragmentAtKeyframes: Bool, filter: String? = nil) -> Destination {
        let flags = (fragmentAtKeyframes ? "frag_keyframe+" : "") + "empty_moov+default_base_moof"
        var destination = Destination(
            url: path, format: "mp4",
            muxerOptions: [("movflags", flags), ("frag_duration", "1000000"),
                           // Every fragment reaches the file (the kernel) as soon as it is complete.
                           ("flush_packets", "1")],
            failure: { .recordFailed(path: path, reason: $0) })
        if let filter { destination.metadata = [(MediaProbe.recordedFilterKey, MediaProbe.recordedFilterPrefix + filter)] }
        return destination
    }
}
