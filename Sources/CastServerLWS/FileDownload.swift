import CastServer
import Foundation

/// A file sent as an HTTP body, one piece per writable callback, with its size fixed when it
/// was opened: a file that grows meanwhile (a recording in progress) is sent as it was, so the
/// `Content-Length` told up front is the number of bytes that follow.
///
/// Owned by one `Connection` on the service thread; closes its descriptor when released.
final class FileDownload {
    /// Bytes read and written per writable callback.
    static let pieceSize = 32 * 1024

    /// The size when the file was opened.
    let size: UInt64
    /// `Last-Modified` (an HTTP date), also the validator an `If-Range` must repeat.
    let lastModified: String
    private let descriptor: Int32
    /// Where the next piece starts, and how many bytes of the answer are still to send.
    private(set) var offset: UInt64 = 0
    private(set) var remaining: UInt64
    /// Room for one piece with `EncodedFrame.headroom` bytes in front (allocated once).
    private let buffer: UnsafeMutablePointer<UInt8>

    /// Opens the regular file at `path`; nil when it cannot be opened or is no regular file.
    init?(path: String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            return nil
        }
        self.descriptor = descriptor
        size = UInt64(status.st_size)
        remaining = size
        lastModified = Self.httpDate(status.st_mtim.tv_sec)
        buffer = .allocate(capacity: EncodedFrame.headroom + Int(min(size, UInt64(Self.pieceSize))))
    }

    deinit {
        close(descriptor)
        buffer.deallocate()
    }

    /// Sends only `count` bytes from `offset` (a `206` answer) instead of the whole file.
    func restrict(offset: UInt64, count: UInt64) {
        self.offset = offset
        remaining = count
    }

    /// Reads the next piece (at most ``pieceSize`` bytes) into a buffer with headroom in front;
    /// nil when the file has shrunk or cannot be read (the promised length cannot be kept).
    func nextPiece() -> (buffer: UnsafeMutablePointer<UInt8>, count: Int, isLast: Bool)? {
        let count = Int(min(remaining, UInt64(Self.pieceSize)))
        let start = buffer + EncodedFrame.headroom
        guard pread(descriptor, start, count, off_t(offset)) == count else { return nil }
        offset += UInt64(count)
        remaining -= UInt64(count)
        return (start, count, remaining == 0)
    }

    /// `seconds` since 1970 as an HTTP date (RFC 9110 IMF-fixdate), independent of the locale.
    static func httpDate(_ seconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
