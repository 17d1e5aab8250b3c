import FilterKit

/// The seek bar's thumbnails of one file (``ThumbnailLayout``), made into one JPEG sprite: the
/// file opened once to learn its size and length, then again by a one-thread preview decoder
/// (non-reference pictures and deblocking skipped: each thumbnail is the picture at its time or
/// a few frames after) that scales to the thumbnail's size, seeks to each time in turn (decoding
/// on rather than seeking where the keyframe is behind: one pass through the file) and converts
/// only the picture it lands on, which is copied into the sprite; TurboJPEG encodes the sprite once.
///
/// Runs on the caller's thread for as long as the file takes to decode (seconds to a minute):
/// call it from a worker thread of low priority. `interruption.interrupt()` from another thread
/// makes it throw soon after (between two thumbnails, or in a read).
public enum ThumbnailSprite {
    /// JPEG quality of the sprite: thumbnails are small and looked at briefly.
    public static let quality = 70

    /// The layout and the sprite's JPEG for the file at `path`; throws naming the problem when
    /// it cannot be opened, decoded or encoded, or was interrupted.
    public static func make(path: String, interruption: Interruption = Interruption()) throws(MediaError)
        -> (layout: ThumbnailLayout, jpeg: [UInt8]) {
        let probe = try Decoder(url: path, threads: 1, interruption: interruption, stepCache: StepCacheBudget(capacityBytes: 0))
        guard probe.canSeek else { throw .notSeekable(input: path) }
        let layout = ThumbnailLayout(duration: probe.duration, pictureWidth: probe.nativeWidth, pictureHeight: probe.nativeHeight)
        let decoder = try Decoder(url: path, threads: 1, outputSize: (layout.width, layout.height), interruption: interruption,
                                  stepCache: StepCacheBudget(capacityBytes: 0), preview: true)
        let thumbnail = Frame(width: layout.width, height: layout.height)
        let sprite = Frame(width: layout.spriteWidth, height: layout.spriteHeight)
        sprite.paintBars(around: .nothing)
        for (index, time) in layout.times.enumerated() {
            if interruption.isRequested { throw .readFailed(input: path, reason: "the read was interrupted") }
            _ = try decoder.seek(to: time, into: thumbnail)
            place(thumbnail, in: sprite, at: layout.origin(of: index))
        }
        let encoder = try JPEGEncoder(width: sprite.width, height: sprite.height, quality: quality)
        do {
            return (layout, try encoder.encode(sprite))
        } catch {
            throw .encodeFailed(reason: "the thumbnails' sprite: \(error)")
        }
    }

    /// Copies `thumbnail` into `sprite` with its top left corner at `origin` (both even).
    static func place(_ thumbnail: Frame, in sprite: Frame, at origin: (x: Int, y: Int)) {
        for index in 0..<3 {
            let from = thumbnail.plane(index), to = sprite.plane(index)
            let shift = index == 0 ? 0 : 1
            Plane(base: to.row(origin.y >> shift) + (origin.x >> shift), width: from.width, height: from.height, stride: to.stride)
                .copy(from: from)
        }
    }
}
