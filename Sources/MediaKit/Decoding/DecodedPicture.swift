import CFFmpeg

/// A picture as the decoder produced it (any pixel format), holding a reference to the decoder's
/// buffers, which stay valid — and unchanged — until the reference is released.
///
/// It lets decoding and conversion run on different threads: the decode thread fills a picture,
/// the processing thread converts it into a ``Frame`` with a ``FrameConverter`` and releases it.
/// One owner at a time, handed over through a ``HandoffQueue``; never written to.
public final class DecodedPicture: @unchecked Sendable {
    let avFrame: UnsafeMutablePointer<AVFrame>
    /// Presentation time in seconds from the start of the source.
    public internal(set) var time: Double = 0
    /// The source's frame number, counted from 0 after each open or seek.
    public internal(set) var sequence: Int = 0

    public init() {
        avFrame = av_frame_alloc()
    }

    deinit {
        var frame: UnsafeMutablePointer<AVFrame>? = avFrame
        av_frame_free(&frame)
    }

    /// Gives the buffers back to the decoder; the picture can then be filled again.
    public func release() {
        av_frame_unref(avFrame)
    }
}
