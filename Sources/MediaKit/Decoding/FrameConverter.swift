import CFFmpeg
import FilterKit

/// Turns decoded `AVFrame`s of any pixel format and size into ``Frame``s (YUV 4:2:0, full-range
/// BT.601, the output size).
///
/// 4:2:0 8-bit pictures of the output size take one pass of ``ColorConverter`` straight from the
/// decoder's planes. Anything else (4:2:2, 4:4:4, RGB, 10-bit, another size) is first converted
/// by swscale into the frame itself, then range and matrix are fixed in place. A picture of
/// another shape than the frame is scaled into a ``PictureFit`` with black bars, not stretched.
public final class FrameConverter {
    public let width: Int
    public let height: Int
    private var colorConverter = ColorConverter(from: .jpeg)
    private var scaler: OpaquePointer?
    /// What the scaler was made for: input size and format.
    private var scalerInput = (width: Int32(0), height: Int32(0), format: Int32(-1))
    /// Where the scaler puts the picture in the frame.
    private var fit: PictureFit

    /// Plane pointers and strides handed to `sws_scale`, allocated once.
    private let sourcePlanes = UnsafeMutablePointer<UnsafePointer<UInt8>?>.allocate(capacity: 4)
    private let sourceStrides = UnsafeMutablePointer<Int32>.allocate(capacity: 4)
    private let destinationPlanes = UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>.allocate(capacity: 4)
    private let destinationStrides = UnsafeMutablePointer<Int32>.allocate(capacity: 4)

    /// A converter to frames of `width × height` (a source's `info` size).
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
        fit = PictureFit(pictureWidth: width, pictureHeight: height, frameWidth: width, frameHeight: height)
        destinationPlanes.initialize(repeating: nil, count: 4)
        destinationStrides.initialize(repeating: 0, count: 4)
    }

    deinit {
        sws_freeContext(scaler)
        sourcePlanes.deallocate()
        sourceStrides.deallocate()
        destinationPlanes.deallocate()
        destinationStrides.deallocate()
    }

    /// Converts `picture` into `frame`, with its time and sequence number. Does not release it.
    public func convert(_ picture: DecodedPicture, into frame: Frame) {
        convert(picture.avFrame, into: frame)
        frame.time = picture.time
        frame.sequence = picture.sequence
    }

    func convert(_ decoded: UnsafeMutablePointer<AVFrame>, into frame: Frame) {
        precondition(frame.width == width && frame.height == height, "frame size does not match the converter")
        let format = AVPixelFormat(rawValue: decoded.pointee.format)
        let isRGB = Self.isRGB(format)
        // Untagged grey is full range, as FFmpeg (swscale) takes it.
        let isFullRange = isRGB || decoded.pointee.color_range == AVCOL_RANGE_JPEG || Self.isJPEGFormat(format)
            || (Self.isGray(format) && decoded.pointee.color_range == AVCOL_RANGE_UNSPECIFIED)
        let space = ColorSpace(
            range: isFullRange ? .full : .limited,
            matrix: isRGB ? .bt601 : Self.matrix(decoded.pointee.colorspace))
        if colorConverter.source != space { colorConverter = ColorConverter(from: space) }

        let direct = (format == AV_PIX_FMT_YUV420P || format == AV_PIX_FMT_YUVJ420P)
            && Int(decoded.pointee.width) == width && Int(decoded.pointee.height) == height
        if direct {
            let data = decoded.pointee.data, lines = decoded.pointee.linesize
            colorConverter.convert(y: data.0!, yStride: Int(lines.0), u: data.1!, uStride: Int(lines.1),
                                   v: data.2!, vStride: Int(lines.2), into: frame)
            return
        }
        scale(decoded, into: frame, fullRange: space.range == .full)
        guard !colorConverter.isIdentity else { return }
        colorConverter.convert(y: frame.y.base, yStride: frame.y.stride, u: frame.u.base, uStride: frame.u.stride,
                               v: frame.v.base, vStride: frame.v.stride, into: frame)
    }

    /// swscale into the frame's planes (the ``fit`` of them) as 8-bit 4:2:0, keeping the source's
    /// range (RGB becomes full-range BT.601, so nothing is left to fix for it); black bars around
    /// a picture of another shape.
    private func scale(_ decoded: UnsafeMutablePointer<AVFrame>, into frame: Frame, fullRange: Bool) {
        let input = (decoded.pointee.width, decoded.pointee.height, decoded.pointee.format)
        if scaler == nil || input != scalerInput {
            makeScaler(for: input, fullRange: fullRange)
        }
        withUnsafeBytes(of: decoded.pointee.data) { data in
            let planes = data.bindMemory(to: UnsafeMutablePointer<UInt8>?.self)
            for i in 0..<4 { sourcePlanes[i] = UnsafePointer(planes[i]) }
        }
        withUnsafeBytes(of: decoded.pointee.linesize) { lines in
            for i in 0..<4 { sourceStrides[i] = lines.load(fromByteOffset: i * 4, as: Int32.self) }
        }
        destinationPlanes[0] = frame.y.row(fit.y) + fit.x
        destinationPlanes[1] = frame.u.row(fit.y / 2) + fit.x / 2
        destinationPlanes[2] = frame.v.row(fit.y / 2) + fit.x / 2
        destinationStrides[0] = Int32(frame.y.stride)
        destinationStrides[1] = Int32(frame.u.stride)
        destinationStrides[2] = Int32(frame.v.stride)
        sws_scale(scaler, sourcePlanes, sourceStrides, 0, decoded.pointee.height, destinationPlanes, destinationStrides)
        // Black bars: the range fix that may follow maps them to black again (limited-range Y
        // below 16 clamps to 0).
        if !fit.covers(width: width, height: height) { frame.paintBars(around: fit) }
    }

    private func makeScaler(for input: (Int32, Int32, Int32), fullRange: Bool) {
        sws_freeContext(scaler)
        fit = PictureFit(pictureWidth: Int(input.0), pictureHeight: Int(input.1), frameWidth: width, frameHeight: height)
        scaler = sws_getContext(input.0, input.1, AVPixelFormat(rawValue: input.2),
                                Int32(fit.width), Int32(fit.height), AV_PIX_FMT_YUV420P,
                                SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT, nil, nil, nil)
        scalerInput = input
        let range: Int32 = fullRange ? 1 : 0
        let table = sws_getCoefficients(SWS_CS_ITU601)
        sws_setColorspaceDetails(scaler, table, range, table, range, 0, 1 << 16, 1 << 16)
    }

    private static func isRGB(_ format: AVPixelFormat) -> Bool {
        guard let descriptor = av_pix_fmt_desc_get(format) else { return false }
        return descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_RGB) != 0
    }

    /// Luma-only formats (gray, gray10, ya8, …), not palettes.
    private static func isGray(_ format: AVPixelFormat) -> Bool {
        guard let descriptor = av_pix_fmt_desc_get(format) else { return false }
        let flags = descriptor.pointee.flags
        return descriptor.pointee.nb_components <= 2
            && flags & UInt64(AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_PAL | AV_PIX_FMT_FLAG_HWACCEL) == 0
    }

    private static func isJPEGFormat(_ format: AVPixelFormat) -> Bool {
        [AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P, AV_PIX_FMT_YUVJ440P, AV_PIX_FMT_YUVJ411P]
            .contains(format)
    }

    private static func matrix(_ space: AVColorSpace) -> ColorSpace.Matrix {
        switch space {
        case AVCOL_SPC_BT709: .bt709
        case AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT2020_CL: .bt2020
        default: .bt601
        }
    }
}
