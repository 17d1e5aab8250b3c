import CFFmpeg
import FilterKit

/// Why bytes are not a still picture this server takes. One line naming the problem.
public struct StillPictureError: Error, Equatable, CustomStringConvertible {
    public let description: String
}

/// One JPEG or PNG picture someone uploaded, decoded with libavcodec, from which frames of any
/// size are cut (``frame(width:height:)``: the centre of the picture at that shape, scaled).
///
/// Meant for untrusted bytes: the format is told by its signature (anything else is refused
/// before a decoder is made), the sides announced by the file are bounded by ``maximumSide``
/// before anything is allocated for them (``BrowserSource/PictureBound`` checks each buffer the
/// decoder asks for), and one packet is decoded, once. Runs on the caller's thread (a decode of up
/// to tens of milliseconds): call it from a worker thread, never a network service thread.
/// Not thread-safe: one owner at a time.
public final class StillPicture {
    /// The longest side taken: a style or thumbnail needs far fewer pixels, and this bounds what a
    /// hostile file can make the decoder allocate (16 megapixels).
    public static let maximumSide = 4096
    /// Sides shorter than this are no picture worth taking a style from.
    public static let minimumSide = 16

    public let width: Int
    public let height: Int
    /// "JPEG" or "PNG".
    public let format: String
    private var decoded: UnsafeMutablePointer<AVFrame>?

    /// Decodes `bytes`; throws naming the problem when they are not one JPEG or PNG picture of
    /// sides within ``minimumSide``…``maximumSide``.
    public init(_ bytes: [UInt8]) throws(StillPictureError) {
        let (codec, format) = try Self.codec(of: bytes)
        self.format = format
        FFmpegLog.install()
        decoded = try FFmpegLog.whileOpening { () throws(StillPictureError) in try Self.decode(bytes, codec: codec, format: format) }
        width = Int(decoded!.pointee.width)
        height = Int(decoded!.pointee.height)
        guard min(width, height) >= Self.minimumSide else {
            throw StillPictureError(description: "the picture is \(width)x\(height): each side must be at least \(Self.minimumSide)")
        }
    }

    deinit { av_frame_free(&decoded) }

    /// The picture's centre at the shape of `width × height` (as much of it as that shape holds),
    /// scaled to that size, as a frame (YUV 4:2:0, full range).
    public func frame(width: Int, height: Int) -> Frame {
        var cropped: UnsafeMutablePointer<AVFrame>? = av_frame_clone(decoded)
        defer { av_frame_free(&cropped) }
        let (cropWidth, cropHeight) = Self.centre(of: (self.width, self.height), shaped: (width, height))
        let picture = cropped!
        picture.pointee.crop_left = numericCast((self.width - cropWidth) / 2)
        picture.pointee.crop_right = numericCast(self.width - cropWidth - (self.width - cropWidth) / 2)
        picture.pointee.crop_top = numericCast((self.height - cropHeight) / 2)
        picture.pointee.crop_bottom = numericCast(self.height - cropHeight - (self.height - cropHeight) / 2)
        av_frame_apply_cropping(picture, Int32(AV_FRAME_CROP_UNALIGNED))
        let frame = Frame(width: width, height: height)
        FrameConverter(width: width, height: height).convert(picture, into: frame)
        return frame
    }

    /// The largest region of `picture` with the shape of `shape` (even sides where it can).
    static func centre(of picture: (width: Int, height: Int), shaped shape: (width: Int, height: Int)) -> (Int, Int) {
        if picture.width * shape.height > shape.width * picture.height {
            return (max(1, picture.height * shape.width / shape.height), picture.height)
        }
        return (picture.width, max(1, picture.width * shape.height / shape.width))
    }

    /// "JPEG" or "PNG", as `bytes`' signature says; nil for anything else.
    public static func format(of bytes: [UInt8]) -> String? {
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return "JPEG" }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "PNG" }
        return nil
    }

    /// The decoder for `bytes`' signature.
    private static func codec(of bytes: [UInt8]) throws(StillPictureError) -> (AVCodecID, String) {
        switch format(of: bytes) {
        case "JPEG": return (AV_CODEC_ID_MJPEG, "JPEG")
        case "PNG": return (AV_CODEC_ID_PNG, "PNG")
        default: throw StillPictureError(description: "not a JPEG or PNG picture (its first bytes say neither)")
        }
    }

    /// The one picture of `bytes`, decoded by a decoder bounded to ``maximumSide``.
    private static func decode(_ bytes: [UInt8], codec: AVCodecID, format: String) throws(StillPictureError) -> UnsafeMutablePointer<AVFrame> {
        let bound = BrowserSource.PictureBound(announced: (maximumSide, maximumSide))
        guard let decoder = avcodec_find_decoder(codec), let context = avcodec_alloc_context3(decoder) else {
            throw StillPictureError(description: "this FFmpeg cannot decode \(format)")
        }
        var owned: UnsafeMutablePointer<AVCodecContext>? = context
        defer { avcodec_free_context(&owned) }
        context.pointee.thread_count = 1
        context.pointee.max_pixels = Int64(maximumSide * maximumSide)
        bound.install(on: context)
        var packet = av_packet_alloc()
        var frame = av_frame_alloc()
        defer { av_packet_free(&packet) }
        guard let packet, frame != nil, avcodec_open2(context, decoder, nil) >= 0,
              av_new_packet(packet, Int32(bytes.count)) >= 0 else {
            av_frame_free(&frame)
            throw StillPictureError(description: "no memory to decode the picture")
        }
        bytes.withUnsafeBytes { packet.pointee.data.update(from: $0.baseAddress!.assumingMemoryBound(to: UInt8.self), count: bytes.count) }
        var result = avcodec_send_packet(context, packet)
        if result >= 0 { result = avcodec_send_packet(context, nil) }
        if result >= 0 { result = avcodec_receive_frame(context, frame) }
        guard result >= 0 else {
            av_frame_free(&frame)
            let tooBig = context.pointee.width > Int32(maximumSide) || context.pointee.height > Int32(maximumSide)
            throw StillPictureError(description: tooBig
                ? "the picture is \(context.pointee.width)x\(context.pointee.height): each side must be at most \(maximumSide)"
                : "the \(format) picture cannot be decoded: \(averrorDescription(result))")
        }
        return frame!
    }
}
