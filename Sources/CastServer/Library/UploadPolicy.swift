import Foundation

/// What an upload (`PUT /api/uploads/NAME`) may be, decided before any byte of its body is
/// taken: its name, and its announced size against `--max-upload-size` and the free disk.
/// Pure: the caller measures the disk and counts the uploads under way.
public struct UploadPolicy: Sendable {
    /// The largest body accepted (`--max-upload-size`).
    public let maxBytes: Int64
    /// Disk that must stay free after the upload (`--min-free-space`, which recordings keep too).
    public let reserveBytes: Int64
    /// Uploads received or probed at once; more are refused (503) until one ends.
    public static let concurrentLimit = 2
    /// The longest name, in UTF-8 bytes (file systems allow 255; suffixes are added to clashes).
    public static let maxNameLength = 120
    /// The extensions a name must end with: what a listing shows and what a download's MIME type
    /// comes from should say the file is a video (the probe decides whether it is one).
    public static let extensions: Set<String> = ["mp4", "m4v", "mov", "3gp", "mkv", "webm", "avi", "flv", "ts",
                                                 "m2ts", "mts", "mpg", "mpeg", "ogv", "wmv", "asf", "mxf"]

    /// Why an upload is refused before its body: the HTTP status and a message naming the problem.
    public struct Refusal: Error, Equatable, CustomStringConvertible {
        public let status: UInt32
        public let message: String
        public var description: String { "\(status) \(message)" }
    }

    public init(maxBytes: Int64, reserveBytes: Int64) {
        self.maxBytes = maxBytes
        self.reserveBytes = reserveBytes
    }

    /// `raw` (the percent-decoded last part of the URL) as a file name for the uploads folder:
    /// one plain name — no folders, not hidden, no control characters or backslashes — of at
    /// most ``maxNameLength`` bytes, ending with one of ``extensions``. 400 otherwise.
    public static func validatedName(_ raw: String) throws(Refusal) -> String {
        func refuse(_ why: String) -> Refusal { Refusal(status: 400, message: "upload name \(shown(raw)): \(why)") }
        if raw.isEmpty { throw refuse("empty; PUT /api/uploads/NAME") }
        if raw.contains("/") || raw.contains("\\") { throw refuse("a name, not a path: no '/' or '\\'") }
        if raw.hasPrefix(".") { throw refuse("hidden names (starting with '.') are not accepted") }
        if raw.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw refuse("control characters are not accepted")
        }
        if raw.utf8.count > maxNameLength { throw refuse("longer than \(maxNameLength) bytes") }
        let suffix = raw.split(separator: ".", omittingEmptySubsequences: false).last.map { $0.lowercased() } ?? ""
        guard raw.contains("."), extensions.contains(suffix) else {
            throw refuse("must end with a video extension (\(extensions.sorted().joined(separator: ", ")))")
        }
        return raw
    }

    /// The body's size from `Content-Length` (nil when absent: 411), checked against
    /// ``maxBytes`` and against `freeBytes` less ``reserveBytes`` (413), and not empty (400).
    public func admittedSize(contentLength: String?, freeBytes: Int64) throws(Refusal) -> Int64 {
        guard let contentLength else {
            throw Refusal(status: 411, message: "Content-Length is required: the upload's size is checked before it is taken")
        }
        guard contentLength.count <= 18, !contentLength.isEmpty, contentLength.allSatisfy(\.isASCIIDigit),
              let size = Int64(contentLength) else {
            throw Refusal(status: 400, message: "Content-Length must be a number of bytes, got '\(contentLength.prefix(40))'")
        }
        if size == 0 { throw Refusal(status: 400, message: "the upload is empty") }
        if size > maxBytes {
            throw Refusal(status: 413, message: "\(size) bytes is more than this server takes (--max-upload-size \(maxBytes) bytes)")
        }
        let room = freeBytes - reserveBytes
        if size > room {
            throw Refusal(status: 413, message: "\(size) bytes would leave less than \(reserveBytes) bytes of free disk "
                + "(\(max(0, freeBytes)) free; --min-free-space)")
        }
        return size
    }

    /// A name as messages show it: cut when long.
    static func shown(_ name: String) -> String {
        name.count > 60 ? "'\(name.prefix(57))…'" : "'\(name)'"
    }
}

private extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
