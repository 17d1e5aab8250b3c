import Foundation

/// A folder that clients may name files in by relative path, and never leave: the one
/// containment check behind the web page's files, the recordings and the media folder.
///
/// A relative path is refused when a component is empty, `.`, `..` or hidden (starts with a
/// dot), or holds a backslash or NUL; a path that resolves (symlinks followed) outside the
/// folder is refused too.
public struct ContainedFolder: Sendable {
    /// The folder with every symlink resolved.
    public let root: String

    /// Fails when `path` is not a folder.
    public init(_ path: String) throws(ContainedFolderError) {
        guard let resolved = Self.realPath(path), Self.isDirectory(resolved) else {
            throw ContainedFolderError(description: "\(path) is not a folder")
        }
        root = resolved
    }

    /// A folder made when first written (the data folder's parts): `path` need not exist yet, and
    /// its root is then the real path of its nearest existing ancestor followed by the rest.
    /// Fails when that ancestor, or `path` itself, is not a folder.
    public init(toBeCreated path: String) throws(ContainedFolderError) {
        var base = URL(fileURLWithPath: path).standardized
        var missing: [String] = []
        while Self.realPath(base.path) == nil, base.path != "/" {
            missing.insert(base.lastPathComponent, at: 0)
            base = base.deletingLastPathComponent()
        }
        guard let resolved = Self.realPath(base.path), Self.isDirectory(resolved) else {
            throw ContainedFolderError(description: "\(path) is not a folder")
        }
        root = ([resolved == "/" ? "" : resolved] + missing).joined(separator: "/")
    }

    /// Creates the folder (and its missing parents) unless it exists.
    public func create() throws(ContainedFolderError) {
        do {
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        } catch {
            throw ContainedFolderError(description: "cannot create the folder \(root): \(error.localizedDescription)")
        }
    }

    /// The components of `relative` ("a/b" → ["a", "b"]; empty components between slashes are
    /// skipped), or nil when one of them may not be named.
    public static func components(of relative: some StringProtocol) -> [Substring]? {
        var components: [Substring] = []
        for component in String(relative).split(separator: "/", omittingEmptySubsequences: true) {
            guard component != ".", component != "..", !component.hasPrefix("."),
                  !component.contains("\\"), !component.contains("\0") else { return nil }
            components.append(component)
        }
        return components
    }

    /// Where `relative` leads, symlinks resolved.
    public enum Resolution: Equatable, Sendable {
        /// A regular file inside the folder, at this real path.
        case file(String)
        /// A folder inside the folder, at this real path.
        case folder(String)
        /// Nothing there (or not a file or folder).
        case missing
        /// The name is refused, or it leads out of the folder.
        case outside
    }

    /// Resolves `relative` (checked with ``components(of:)``) inside the folder.
    public func resolve(_ relative: some StringProtocol) -> Resolution {
        guard let components = Self.components(of: relative) else { return .outside }
        let candidate = ([root] + components.map(String.init)).joined(separator: "/")
        guard let resolved = Self.realPath(candidate) else { return .missing }
        guard resolved == root || resolved.hasPrefix(root + "/") else { return .outside }
        if Self.isDirectory(resolved) { return .folder(resolved) }
        return Self.isRegularFile(resolved) ? .file(resolved) : .missing
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    static func isRegularFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }
}

public struct ContainedFolderError: Error, CustomStringConvertible {
    public let description: String
}
