import CV4L2
import Foundation

/// A V4L2 video capture device (a camera, a capture card) and what its driver says it can
/// deliver: pixel formats, frame sizes and frame rates (the ioctls `VIDIOC_QUERYCAP`,
/// `VIDIOC_ENUM_FMT`, `VIDIOC_ENUM_FRAMESIZES` and `VIDIOC_ENUM_FRAMEINTERVALS`).
public struct CaptureDevice: Sendable, Equatable, Encodable {
    public struct Format: Sendable, Equatable, Encodable {
        /// The V4L2 four-character code: `MJPG`, `YUYV`, …
        public let fourcc: String
        /// What to give `--camera-format` for it (FFmpeg's name), when FilterCast knows it.
        public let cameraFormat: String?
        /// The driver's description.
        public let description: String
        public let sizes: [FrameSize]
    }

    /// One size: discrete, or the smallest and largest of a stepwise range (`stepwise` true).
    public struct FrameSize: Sendable, Equatable, Encodable {
        public let width: Int
        public let height: Int
        public let stepwise: Bool
        /// Frames per second at this size (discrete intervals; a stepwise range by its ends).
        public let rates: [Double]
    }

    /// `/dev/videoN`.
    public let path: String
    /// The device's name (`card`) and its driver.
    public let card: String
    public let driver: String
    public let formats: [Format]

    /// Opens `path` and asks its driver what it is. Throws `openFailed` with a reason that says
    /// what is wrong: no such device, permission denied, busy, not a capture device.
    public static func probe(_ path: String) throws(MediaError) -> CaptureDevice {
        let fd = open(path, O_RDWR | O_NONBLOCK)
        guard fd >= 0 else { throw .openFailed(input: path, reason: openFailureReason(errno)) }
        defer { close(fd) }
        var capability = v4l2_capability()
        guard CV4L2_querycap(fd, &capability) == 0 else {
            throw .openFailed(input: path, reason: "not a capture device (not a V4L2 device: \(String(cString: strerror(errno))))")
        }
        let card = text(of: capability.card), driver = text(of: capability.driver)
        let capabilities = capability.capabilities & UInt32(V4L2_CAP_DEVICE_CAPS) != 0
            ? capability.device_caps : capability.capabilities
        guard capabilities & UInt32(V4L2_CAP_VIDEO_CAPTURE) != 0 else {
            throw .openFailed(input: path, reason: "not a capture device (\(card) by \(driver) cannot capture video "
                + "on this node: it is an output, metadata or codec node)")
        }
        return CaptureDevice(path: path, card: card, driver: driver, formats: formats(fd))
    }

    /// The capture devices among `/dev/video*`, in number order; nodes that are not capture
    /// devices (metadata nodes, say) or cannot be opened are left out.
    public static func list(in folder: String = "/dev") -> [CaptureDevice] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        let numbered = names.compactMap { name -> (Int, String)? in
            guard name.hasPrefix("video"), let number = Int(name.dropFirst(5)) else { return nil }
            return (number, "\(folder)/\(name)")
        }
        return numbered.sorted { $0.0 < $1.0 }.compactMap { try? probe($0.1) }
    }

    /// The message for an `open(2)` failure.
    static func openFailureReason(_ code: Int32) -> String {
        switch code {
        case ENOENT, ENODEV, ENXIO: "no such device"
        case EACCES, EPERM: "permission denied (is the user in the 'video' group?)"
        case EBUSY: "the device is busy: another program is using it"
        default: String(cString: strerror(code))
        }
    }

    private static func formats(_ fd: Int32) -> [Format] {
        var formats: [Format] = []
        var description = v4l2_fmtdesc()
        description.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        while CV4L2_enum_fmt(fd, &description) == 0 {
            let fourcc = fourCC(description.pixelformat)
            formats.append(Format(fourcc: fourcc, cameraFormat: cameraFormats[fourcc],
                                  description: text(of: description.description),
                                  sizes: sizes(fd, pixelFormat: description.pixelformat)))
            description.index += 1
        }
        return formats
    }

    private static func sizes(_ fd: Int32, pixelFormat: UInt32) -> [FrameSize] {
        var sizes: [FrameSize] = []
        var size = v4l2_frmsizeenum()
        size.pixel_format = pixelFormat
        while CV4L2_enum_framesizes(fd, &size) == 0 {
            if size.type == V4L2_FRMSIZE_TYPE_DISCRETE.rawValue {
                let (width, height) = (size.discrete.width, size.discrete.height)
                sizes.append(FrameSize(width: Int(width), height: Int(height), stepwise: false,
                                       rates: rates(fd, pixelFormat: pixelFormat, width: width, height: height)))
                size.index += 1
            } else {
                // Stepwise or continuous: one entry, the range by its two ends.
                let range = size.stepwise
                for (width, height) in [(range.min_width, range.min_height), (range.max_width, range.max_height)] {
                    sizes.append(FrameSize(width: Int(width), height: Int(height), stepwise: true,
                                           rates: rates(fd, pixelFormat: pixelFormat, width: width, height: height)))
                }
                break
            }
        }
        return sizes
    }

    private static func rates(_ fd: Int32, pixelFormat: UInt32, width: UInt32, height: UInt32) -> [Double] {
        var rates: [Double] = []
        var interval = v4l2_frmivalenum()
        interval.pixel_format = pixelFormat
        interval.width = width
        interval.height = height
        while CV4L2_enum_frameintervals(fd, &interval) == 0 {
            if interval.type == V4L2_FRMIVAL_TYPE_DISCRETE.rawValue {
                rates.append(rate(interval.discrete))
                interval.index += 1
            } else {
                // A range of intervals: the fastest and the slowest rate.
                rates += [rate(interval.stepwise.min), rate(interval.stepwise.max)]
                break
            }
        }
        return rates
    }

    /// Frames per second of a frame interval (seconds as a fraction).
    private static func rate(_ interval: v4l2_fract) -> Double {
        interval.numerator == 0 ? 0 : (Double(interval.denominator) / Double(interval.numerator) * 100).rounded() / 100
    }

    private static func fourCC(_ code: UInt32) -> String {
        String(decoding: (0..<4).map { UInt8((code >> ($0 * 8)) & 0xFF) }, as: UTF8.self)
            .trimmingCharacters(in: .whitespaces)
    }

    /// A fixed-size C string field (a tuple of bytes) as a String.
    private static func text<T>(of field: T) -> String {
        withUnsafeBytes(of: field) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    /// The V4L2 formats FFmpeg's `input_format` names, by four-character code.
    static let cameraFormats = [
        "MJPG": "mjpeg", "JPEG": "mjpeg", "YUYV": "yuyv422", "UYVY": "uyvy422", "H264": "h264",
        "NV12": "nv12", "YU12": "yuv420p", "YV12": "yuv420p", "RGB3": "rgb24", "BGR3": "bgr24", "GREY": "gray",
    ]
}
