import Foundation

/// The folders of files the server writes (LUTs, looks): read at start, made when first written,
/// and written so that a reader never sees a file half written, even after a crash: the bytes go
/// into a hidden temporary file of the same folder (`prefix` + a UUID; a folder's reader removes
/// such leftovers at start), flushed, then put in place in one step.
enum AtomicFile {
    /// Removes the temporary files a crash left in `folder` (`prefix`), and returns the names of
    /// its files ending in `suffix` that are not hidden, sorted (none while it does not exist); or
    /// what went wrong when it is not a folder or cannot be read.
    static func prepare(_ folder: String, temporaryPrefix prefix: String, suffix: String) -> Result<[String], FolderError> {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) else { return .success([]) }
        guard isFolder.boolValue else { return .failure(FolderError(reason: "it is not a folder")) }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        } catch {
            return .failure(FolderError(reason: error.localizedDescription))
        }
        for name in names where name.hasPrefix(prefix) { unlink(folder + "/" + name) }
        return .success(names.filter { !$0.hasPrefix(".") && $0.hasSuffix(suffix) })
    }

    /// Why a folder could not be read.
    struct FolderError: Error {
        let reason: String
    }

    /// Writes `bytes` as `folder/name` (created with permissions `mode`). `replacing`: renamed over
    /// a file of that name; else linked under it, which fails rather than replace one. `flushing`
    /// (the default): the bytes reach the disk before the rename; without, they are in the kernel's
    /// cache when it returns — a crash of the process keeps them, a crash of the machine may
    /// not until the caller flushes them (``flush(_:)``). Returns nil, or what went wrong.
    static func write(_ bytes: [UInt8], folder: String, name: String, temporaryPrefix prefix: String,
                      replacing: Bool, mode: mode_t = 0o644, flushing: Bool = true) -> String? {
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            return "cannot create \(folder): \(error.localizedDescription)"
        }
        let temporary = folder + "/" + prefix + UUID().uuidString
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else { return "cannot write in \(folder): \(String(cString: strerror(errno)))" }
        defer { unlink(temporary) }
        let written = bytes.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let count = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count <= 0 { return false }
                offset += count
            }
            return true
        }
        let flushed = written && (!flushing || fsync(descriptor) == 0)
        let problem = String(cString: strerror(errno))
        close(descriptor)
        guard flushed else { return "cannot write \(name): \(problem)" }
        let target = folder + "/" + name
        guard (replacing ? rename(temporary, target) : link(temporary, target)) == 0 else {
            return "cannot store \(name): \(String(cString: strerror(errno)))"
        }
        return nil
    }

    /// Flushes the file at `path` to the disk (after a write without ``write(_:folder:name:temporaryPrefix:replacing:mode:flushing:)``'s
    /// flush); false when it cannot be opened or flushed.
    @discardableResult
    static func flush(_ path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return fsync(descriptor) == 0
    }
}
