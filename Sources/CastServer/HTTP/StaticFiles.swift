import Foundation

/// Maps URL paths to files under the web root, safely: no `..`, no hidden files, no symlinks
/// that lead out of the root, regular files only.
public struct StaticFiles: Sendable {
    /// The root with every symlink resolved.
    public let root: String

    /// Fails when `root` is not a readable folder.
    public init(root: String) throws {
        guard let resolved = Self.realPath(root), Self.isDirectory(resolved) else {
            throw StaticFilesError(description: "web root \(root) is not a folder")
        }
        self.root = resolved
    }

    /// The relative file path a URL path asks for ("/" and folders → their index.html), or nil
    /// when the path is malformed or tries to leave the root. Percent-escapes are decoded once.
    public static func normalize(_ urlPath: String) -> String? {
        let pathOnly = urlPath.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        guard pathOnly.hasPrefix("/"), let decoded = String(pathOnly).removingPercentEncoding else { return nil }
        var components: [Substring] = []
        for component in decoded.split(separator: "/", omittingEmptySubsequences: true) {
            guard component != ".", component != "..", !component.hasPrefix("."),
                  !component.contains("\\"), !component.contains("\0") else { return nil }
            components.append(component)
        }
        if decoded.hasSuffix("/") || components.isEmpty { components.append("index.html") }
        return components.joined(separator: "/")
    }

    /// The file to serve for `urlPath` and its MIME type, or nil (404).
    public func resolve(_ urlPath: String) -> (path: String, mimeType: String)? {
        guard let relative = Self.normalize(urlPath) else { return nil }
        var candidate = root + "/" + relative
        if Self.isDirectory(candidate) { candidate += "/index.html" }
        guard let resolved = Self.realPath(candidate), resolved.hasPrefix(root + "/"),
              Self.isRegularFile(resolved) else { return nil }
        return (resolved, Self.mimeType(for: resolved))
    }

    static let mimeTypes: [String: String] = [
        "html": "text/html; charset=utf-8", "htm": "text/html; charset=utf-8",
        "js": "text/javascript; charset=utf-8", "mjs": "text/javascript; charset=utf-8",
        "css": "text/css; charset=utf-8", "json": "application/json", "map": "application/json",
        "txt": "text/plain; charset=utf-8", "svg": "image/svg+xml", "png": "image/png",
        "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp",
        "ico": "image/x-icon", "woff2": "font/woff2", "woff": "font/woff", "wasm": "application/wasm",
        "webmanifest": "application/manifest+json",
    ]

    public static func mimeType(for path: String) -> String {
        let name = path.split(separator: "/").last ?? ""
        guard let dot = name.lastIndex(of: ".") else { return "application/octet-stream" }
        return mimeTypes[name[name.index(after: dot)...].lowercased()] ?? "application/octet-stream"
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    private static func isRegularFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }
}

public struct StaticFilesError: Error, CustomStringConvertible {
    public let description: String
}
