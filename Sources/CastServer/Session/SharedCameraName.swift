/// What every viewer sees as the name of a shared camera (`state.source.name`), from the label the
/// sharer's browser gave it (`share.label`). A browser's label is the device's name ("FaceTime HD
/// Camera", "fake_device_0"), but a browser may put anything there — Chromium's fake camera a
/// local file path — and every viewer sees it: so the label is shown only where it looks like a
/// device name, and never at length. Pure.
enum SharedCameraName {
    /// The name where the label cannot be shown.
    static let generic = "shared camera"
    /// The longest label shown, in characters (a longer one is cut, with an ellipsis).
    static let maximumLabelLength = 48
    /// Endings of media files: a label ending so is a file's name, not a device's.
    static let mediaExtensions: Set<String> = [
        "y4m", "mjpeg", "mjpg", "yuv", "mp4", "m4v", "mov", "mkv", "webm", "avi", "wmv", "flv", "ts", "mts",
        "mpg", "mpeg", "3gp", "ogv", "ogg", "h264", "264", "h265", "hevc", "ivf", "jpg", "jpeg", "png", "gif",
        "bmp", "webp", "wav", "mp3", "m4a", "opus", "flac",
    ]

    /// "<label> (shared camera)" when `label` looks like a device name — not empty, no `/` or
    /// `\`, no control character, no media file ending — cut to ``maximumLabelLength``;
    /// otherwise ``generic``.
    static func shown(label: String) -> String {
        let trimmed = label.trimmingWhitespace
        guard !trimmed.isEmpty, !trimmed.contains(where: { $0 == "/" || $0 == "\\" || $0.isControl }),
              !hasMediaExtension(trimmed) else { return generic }
        let cut = trimmed.count > maximumLabelLength
            ? String(trimmed.prefix(maximumLabelLength - 1)).trimmingWhitespace + "…" : trimmed
        return "\(cut) (\(generic))"
    }

    private static func hasMediaExtension(_ label: String) -> Bool {
        guard let dot = label.lastIndex(of: ".") else { return false }
        return mediaExtensions.contains(label[label.index(after: dot)...].lowercased())
    }
}

private extension Character {
    var isControl: Bool { unicodeScalars.contains { $0.properties.generalCategory == .control || $0.properties.generalCategory == .format } }
}

private extension String {
    var trimmingWhitespace: String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
