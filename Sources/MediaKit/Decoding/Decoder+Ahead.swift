import CFFmpeg

/// Where a run of pictures decoded ahead of need stands (``Decoder/ahead``).
struct AheadRun {
    /// The run's pictures come from the keyframe at or before this timestamp.
    let target: Int64
    /// The decoder's picture when the run left it: the run goes on from there while the decoder
    /// still shows it (nothing else moved it meanwhile).
    var last: Int64?
    /// Pictures decoded so far.
    var pictures = 0
    /// The last picture put in another decoder's cache: the next one's predecessor.
    var kept: Int64?
    /// Nothing more to decode: the input ended, or the keyframe came after the target.
    var finished = false
}

/// Decoding ahead of need, a picture a call, in the time a frame leaves before it is due: the GOP
/// before the pictures held at the playhead, playing backward (ready when the playhead crosses
/// their keyframe), and a loop's in, by a second decoder on the same file while this one plays on
/// (ready for the first wrap). Either way no picture waits for a GOP's decode. Decode thread only.
extension Decoder {
    /// Playing backward: decodes the next picture of the GOP before the run of neighbours held at
    /// the playhead into the step cache, as a seek there would (room is made by letting go of
    /// the pictures after the playhead: they were shown). False when there is nothing to do: the
    /// run starts at the first picture, the cache has no room, the input ended.
    func decodeBehind() throws(MediaError) -> Bool {
        guard let first = stepCache.runStart(), stepCache.hasRoom(droppingAfterPlayhead: true) else { return false }
        // The decoder leaves the playhead: playing on forward starts from the cache's picture after it.
        if replaying == nil { replaying = decodedTimestamp }
        keepsPictures = true
        defer { keepsPictures = false }
        guard try decodeAhead(toward: first &- 1) != nil else { return false }
        av_frame_unref(decoded)
        return true
    }

    /// A second decoder on the file `cache` plays from: decodes the next picture from the
    /// keyframe at or before `start`, putting those from `keepFrom` on in `cache` as a run of
    /// neighbours. False once that run reaches a picture `cache` held already (the pictures played
    /// since: the run now leads into them), at the input's end, or when `cache` has no room left.
    func decodeAhead(from start: Int64, keepingFrom keepFrom: Int64, into cache: DecodedPictureCache) throws(MediaError) -> Bool {
        guard cache.hasRoom(droppingAfterPlayhead: false), let timestamp = try decodeAhead(toward: start) else { return false }
        defer { av_frame_unref(decoded) }
        guard timestamp >= keepFrom else { return true }
        let joined = ahead?.kept != nil && cache.holds(timestamp)
        cache.keep(decoded, at: timestamp, after: ahead?.kept)
        ahead?.kept = timestamp
        if joined { ahead?.finished = true }
        return !joined
    }

    /// Decodes the next picture of the run toward `target` into `decoded`, positioning the input
    /// first when the run is a new one (or something else moved the decoder); its timestamp, nil
    /// when the run is over.
    private func decodeAhead(toward target: Int64) throws(MediaError) -> Int64? {
        if ahead?.target != target || ahead?.last != decodedTimestamp {
            ahead = AheadRun(target: target)
            guard seekInput(toKeyframeBefore: target) >= 0 else {
                ahead?.finished = true
                return nil
            }
            ahead?.last = decodedTimestamp
        }
        guard ahead?.finished == false else { return nil }
        guard try receiveFrame(), let timestamp = decodedTimestamp else {
            av_frame_unref(decoded)
            ahead?.finished = true
            return nil
        }
        ahead?.last = timestamp
        ahead?.pictures += 1
        if ahead?.pictures == 1 && timestamp > target {
            // The index's keyframe came after the target: a seek's back-off is for the step itself.
            av_frame_unref(decoded)
            ahead?.finished = true
            return nil
        }
        return timestamp
    }
}
