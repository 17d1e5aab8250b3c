import CFFmpeg

/// Why a source could not be opened, read, seeked or encoded. Messages are one line and name
/// the input and the problem.
public enum MediaError: Error, Equatable, CustomStringConvertible {
    case openFailed(input: String, reason: String)
    case noVideoStream(input: String)
    case unsupportedCodec(input: String, codec: String)
    case readFailed(input: String, reason: String)
    case notSeekable(input: String)
    case seekFailed(input: String, seconds: Double, reason: String)
    case endOfStream(input: String)
    case encodeFailed(reason: String)
    case recordFailed(path: String, reason: String)
    case publishFailed(target: String, reason: String)
    case invalidInput(String)

    public var description: String {
        switch self {
        case .openFailed(let input, let reason): "cannot open \(input): \(reason)"
        case .noVideoStream(let input): "\(input) has no video stream: a file of sound alone is not played (there is no picture to filter)"
        case .unsupportedCodec(let input, let codec): "\(input): no decoder for video codec '\(codec)'"
        case .readFailed(let input, let reason): "error reading \(input): \(reason)"
        case .notSeekable(let input): "\(input) is a live source and cannot seek"
        case .seekFailed(let input, let seconds, let reason): "cannot seek \(input) to \(seconds) s: \(reason)"
        case .endOfStream(let input): "\(input) ended before any frame could be decoded"
        case .encodeFailed(let reason): "encoding failed: \(reason)"
        case .recordFailed(let path, let reason): "cannot record \(path): \(reason)"
        case .publishFailed(let target, let reason): "cannot publish to \(target): \(reason)"
        case .invalidInput(let message): message
        }
    }
}

/// FFmpeg's text for an error code (`av_err2str` is a macro Swift cannot call).
func averrorDescription(_ code: Int32) -> String {
    var buffer = [CChar](repeating: 0, count: 128)
    guard av_strerror(code, &buffer, buffer.count) == 0 else { return "error \(code)" }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
