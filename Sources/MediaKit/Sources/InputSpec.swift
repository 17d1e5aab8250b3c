/// What the user asked to play, parsed from `--input`:
/// - `test` or `test:WxH@FPS` (the default: `test:1280x720@30`) — the built-in test pattern;
/// - `/dev/videoN` (any path under `/dev/`) — a V4L2 camera; `camera` — the first one;
/// - anything else — a file path or URL that libavformat opens.
public enum InputSpec: Equatable, Sendable, CustomStringConvertible {
    case testPattern(width: Int, height: Int, rate: Int)
    case camera(device: String)
    /// The first capture device (see ``CaptureDevice/list(in:)``), found when opened.
    case firstCamera
    case file(String)

    public static let defaultTestPattern = InputSpec.testPattern(width: 1280, height: 720, rate: 30)

    public init(parsing text: String) throws(MediaError) {
        if text == "test" {
            self = .defaultTestPattern
        } else if text.hasPrefix("test:") {
            let spec = text.dropFirst(5)
            let parts = spec.split(separator: "@", omittingEmptySubsequences: false)
            let size = parts.first.map { $0.split(separator: "x", omittingEmptySubsequences: false) } ?? []
            guard parts.count <= 2, size.count == 2,
                  let width = Int(size[0]), let height = Int(size[1]),
                  (16...7680).contains(width), (16...4320).contains(height) else {
                throw .invalidInput("invalid test pattern '\(text)': expected test:WxH@FPS with sizes 16x16…7680x4320")
            }
            var rate = 30
            if parts.count == 2 {
                guard let value = Int(parts[1]), (1...240).contains(value) else {
                    throw .invalidInput("invalid test pattern rate in '\(text)': expected 1…240 frames per second")
                }
                rate = value
            }
            self = .testPattern(width: width, height: height, rate: rate)
        } else if text.hasPrefix("/dev/") {
            self = .camera(device: text)
        } else if text == "camera" {
            self = .firstCamera
        } else if text.isEmpty {
            throw .invalidInput("empty input: give a file, URL, /dev/videoN, 'camera' or 'test'")
        } else {
            self = .file(text)
        }
    }

    /// Live sources never end and cannot seek.
    public var isLive: Bool {
        if case .file = self { return false }
        return true
    }

    public var description: String {
        switch self {
        case .testPattern(let width, let height, let rate): "test pattern \(width)x\(height)@\(rate)"
        case .camera(let device): "camera \(device)"
        case .firstCamera: "the first camera"
        case .file(let path): path
        }
    }
}
