import Glibc

/// Which file a path names and how it looked: device, inode, size and modification time. Two
/// differ when the file was deleted, replaced (renamed over), truncated or rewritten in between.
public struct FileIdentity: Equatable, Sendable {
    private let device: UInt64
    private let inode: UInt64
    private let size: Int64
    private let modifiedSeconds: Int
    private let modifiedNanoseconds: Int

    /// Nil when `path` names nothing that `stat` can see (a URL, a deleted file).
    public init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modifiedSeconds = info.st_mtim.tv_sec
        modifiedNanoseconds = info.st_mtim.tv_nsec
    }

    /// 16 hex digits that differ (but for a hash collision) when two identities do: what names
    /// a version of the file in a cache.
    public var fingerprint: String {
        FNV1a.hex(of: "\(device) \(inode) \(size) \(modifiedSeconds).\(modifiedNanoseconds)")
    }
}
