import Foundation

/// The `--uploads` folder on disk: hidden temporary files that bodies are streamed into, and
/// the placing of an accepted one under its name, never over another file.
///
/// Temporary files are `.upload-*.part` in the folder itself (so that placing one is a rename on
/// the same file system) and hidden (so that nothing lists, opens or serves them). Thread-safe:
/// it holds no mutable state; the file system arbitrates.
public struct UploadFolder: Sendable {
    public let folder: ContainedFolder
    static let temporaryPrefix = ".upload-"
    static let temporarySuffix = ".part"
    /// The most `-N` suffixes tried for a name that is taken.
    static let maxSuffix = 999

    /// The folder (made at the first upload) without the temporary files a previous run left
    /// behind (uploads cut short by a crash or a stop).
    public init(path: String) throws {
        folder = try ContainedFolder(toBeCreated: path)
        removeStaleTemporaries()
    }

    /// Deletes the folder's temporary files; returns how many.
    @discardableResult
    func removeStaleTemporaries() -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.root)) ?? []
        let stale = names.filter { $0.hasPrefix(Self.temporaryPrefix) && $0.hasSuffix(Self.temporarySuffix) }
        return stale.filter { unlink(folder.root + "/" + $0) == 0 }.count
    }

    /// A new, empty temporary file opened for writing, or nil (with the reason) when it cannot be made.
    func createTemporary() -> Result<(path: String, descriptor: Int32), ContainedFolderError> {
        do throws(ContainedFolderError) {
            try folder.create()
        } catch {
            return .failure(error)
        }
        let path = folder.root + "/" + Self.temporaryPrefix + UUID().uuidString + Self.temporarySuffix
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            return .failure(ContainedFolderError(description: "cannot create a file in the uploads folder: \(String(cString: strerror(errno)))"))
        }
        return .success((path, descriptor))
    }

    /// Bytes free on the folder's file system (its nearest existing ancestor's before the first
    /// upload made it) for an unprivileged writer.
    func freeBytes() -> Int64 {
        var info = statvfs()
        var path = folder.root
        while statvfs(path, &info) != 0 {
            guard errno == ENOENT, path != "/" else { return 0 }
            path = (path as NSString).deletingLastPathComponent
        }
        return Int64(clamping: UInt64(info.f_bavail) &* UInt64(info.f_frsize))
    }

    /// Gives `temporary` the name `name` (already validated) or, when that is taken, `stem-N.ext`;
    /// never replaces a file (`link` fails on an existing name, where `rename` would overwrite).
    /// Returns the name given.
    func place(_ temporary: String, as name: String) throws(ContainedFolderError) -> String {
        let dot = name.lastIndex(of: ".") ?? name.endIndex
        let (stem, suffix) = (name[..<dot], name[dot...])
        for attempt in 0...Self.maxSuffix {
            let candidate = attempt == 0 ? name : "\(stem)-\(attempt)\(suffix)"
            if link(temporary, folder.root + "/" + candidate) == 0 {
                unlink(temporary)
                return candidate
            }
            guard errno == EEXIST else {
                throw ContainedFolderError(description: "cannot store the upload: \(String(cString: strerror(errno)))")
            }
        }
        throw ContainedFolderError(description: "'\(name)' and \(Self.maxSuffix) numbered variants of it are taken")
    }
}
