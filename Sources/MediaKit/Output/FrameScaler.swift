import CFFmpeg
import FilterKit

/// Scales frames to a smaller rendition's size with swscale, plane by plane as 8-bit grey (so
/// that nothing touches the range or the matrix), averaging over the area each output pixel
/// covers: no aliasing on the fine detail of natural footage.
///
/// Not thread-safe: one thread scales with it.
public final class FrameScaler {
    public let width: Int
    public let height: Int
    private let luma: OpaquePointer
    private let chroma: OpaquePointer
    private let planes = UnsafeMutablePointer<UnsafePointer<UInt8>?>.allocate(capacity: 1)
    private let output = UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>.allocate(capacity: 1)
    private let strides = UnsafeMutablePointer<Int32>.allocate(capacity: 2)

    /// A scaler from `sourceWidth × sourceHeight` frames to `width × height` ones; nil when
    /// swscale refuses the sizes.
    public init?(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int) {
        func context(_ sw: Int, _ sh: Int, _ w: Int, _ h: Int) -> OpaquePointer? {
            sws_getContext(Int32(sw), Int32(sh), AV_PIX_FMT_GRAY8, Int32(w), Int32(h), AV_PIX_FMT_GRAY8,
                           Int32(SWS_AREA), nil, nil, nil)
        }
        guard let luma = context(sourceWidth, sourceHeight, width, height) else { return nil }
        guard let chroma = context((sourceWidth + 1) / 2, (sourceHeight + 1) / 2, (width + 1) / 2, (height + 1) / 2) else {
            sws_freeContext(luma)
            return nil
        }
        (self.width, self.height, self.luma, self.chroma) = (width, height, luma, chroma)
    }

    deinit {
        sws_freeContext(luma)
        sws_freeContext(chroma)
        planes.deallocate()
        output.deallocate()
        strides.deallocate()
    }

    /// Scales `source` into `destination` (of this scaler's size), with its timing.
    public func scale(_ source: Frame, into destination: Frame) {
        precondition(destination.width == width && destination.height == height, "the frame is not the scaler's size")
        scale(source, into: destination, x: 0, y: 0)
    }

    /// Scales `source` into the scaler-sized region of `destination` whose top left corner is at
    /// (`x`, `y`), both even, with its timing; the rest of `destination` is left as it is.
    public func scale(_ source: Frame, into destination: Frame, x: Int, y: Int) {
        precondition(x % 2 == 0 && y % 2 == 0 && x + width <= destination.width && y + height <= destination.height,
                     "the region is not inside the frame")
        for index in 0..<3 {
            let from = source.plane(index), to = destination.plane(index)
            let shift = index == 0 ? 0 : 1
            planes[0] = UnsafePointer(from.base)
            output[0] = to.row(y >> shift) + (x >> shift)
            strides[0] = Int32(from.stride)
            strides[1] = Int32(to.stride)
            sws_scale(index == 0 ? luma : chroma, planes, strides, 0, Int32(from.height), output, strides + 1)
        }
        destination.copyTiming(from: source)
    }
}
