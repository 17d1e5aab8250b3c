/// A loop's in, decoded ahead while the loop plays toward its out: a second decoder on the same
/// file (the first stays at the playhead) decodes from the in's keyframe and puts the pictures
/// from the in on into the first decoder's step cache, as a run that leads into the pictures
/// played since the loop was set (kept there while a loop plays). The first wrap then finds
/// every picture from the in to them held, instead of decoding from the in's keyframe between
/// the out's frame and the in's. Bounded by the step cache's bound; decode thread only.
final class LoopInPreparation {
    /// The loop's in (seconds).
    let seconds: Double
    private var second: Decoder?
    private var done = false

    init(seconds: Double) {
        self.seconds = seconds
    }

    /// Decodes the next picture toward the in, for `main`'s cache (opening the second decoder on
    /// the first call). False once done, or when it cannot: a failure to open or to decode is
    /// reported as a warning and ends it (the wrap then decodes as it would have).
    func step(for main: Decoder) -> Bool {
        guard !done else { return false }
        do throws(MediaError) {
            let decoder = try opened(like: main)
            let frame = 1 / (main.frameRate ?? 30)
            if try decoder.decodeAhead(from: main.timestamp(at: seconds), keepingFrom: main.timestamp(at: seconds - frame),
                                       into: main.stepCache) {
                return true
            }
        } catch {
            main.warn("the loop's in (\(main.milliseconds(seconds)) s) could not be decoded ahead: \(error)")
        }
        done = true
        second = nil  // its pictures live on in the cache (references to its buffers)
        return false
    }

    /// The second decoder, opened on `main`'s file the first time.
    private func opened(like main: Decoder) throws(MediaError) -> Decoder {
        if let second { return second }
        let decoder = try Decoder(url: main.input, stepCache: StepCacheBudget(capacityBytes: 0))
        second = decoder
        return decoder
    }
}
