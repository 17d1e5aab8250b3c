import CFFmpeg

extension BrowserSource {
    /// The largest picture buffer a camera's decoder may allocate: the announced sides rounded up
    /// to whole 16-pixel macroblocks (what H.264 codes, and MJPEG's largest MCU).
    ///
    /// `max_pixels` alone does not bound it: libavcodec checks the context's (cropped) size, but
    /// allocates the coded size of the parameter set being decoded, which a damaged or hostile
    /// stream can make far larger — fuzzing found a 138x32 picture (a 256-byte stride) out of a
    /// decoder whose context said 64x64. This bound is checked in `get_buffer2`, on the sides the
    /// buffer is allocated for, before anything is: such a picture fails to decode instead.
    final class PictureBound: Sendable {
        let width: Int32
        let height: Int32

        init(announced: (width: Int, height: Int)) {
            width = Int32((announced.width + 15) / 16 * 16)
            height = Int32((announced.height + 15) / 16 * 16)
        }

        /// Makes `context` allocate its pictures through the bound, which must outlive it.
        func install(on context: UnsafeMutablePointer<AVCodecContext>) {
            context.pointee.opaque = Unmanaged.passUnretained(self).toOpaque()
            context.pointee.get_buffer2 = boundedBuffer
        }
    }
}

/// libavcodec's default allocation, for pictures within the context's ``BrowserSource/PictureBound``.
private func boundedBuffer(_ context: UnsafeMutablePointer<AVCodecContext>?, _ frame: UnsafeMutablePointer<AVFrame>?,
                           _ flags: Int32) -> Int32 {
    guard let context, let frame, let opaque = context.pointee.opaque else { return CFFmpeg_AVERROR(EINVAL) }
    let bound = Unmanaged<BrowserSource.PictureBound>.fromOpaque(opaque).takeUnretainedValue()
    guard frame.pointee.width <= bound.width, frame.pointee.height <= bound.height else {
        return CFFmpeg_AVERROR_INVALIDDATA()
    }
    return avcodec_default_get_buffer2(context, frame, flags)
}
