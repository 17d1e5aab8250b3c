import Foundation

/// Maps URL paths to files under the web root, safely: no `..`, no hidden files, no symlinks
/// that lead out of the root, regular files only.
public struct StaticFiles: Sendable {
    private let folder: ContainedFolder

    /// The root with every symlink resolved.
    public var root: String { folder.root }

    /// Fails when `root` is not a readable folder.
    public init(root: String) throws {
        do {
            folder = try ContainedFolder(root)
        } catch {
            throw StaticFilesError(description: "web root \(root) is not a folder")
        }
    }

    /// The relative file path a URL path asks for ("/" and folders → their index.html), or nil
    /// when the path is malformed or tries to leave the root. Percent-escapes are decoded once.
    public static func normalize(_ urlPath: String) -> String? {
        let pathOnly = urlPath.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        guard pathOnly.hasPrefix("/"), let decoded = String(pathOnly).removingPercentEncoding,
              var components = ContainedFolder.components(of: decoded) else { return nil }
        if decoded.hasSuffix("/") || components.isEmpty { components.append("index.html") }
        return components.joined(separator: "/")
    }

    /// The file to serve for `urlPath` and its MIME type, or nil (404). A page is also found
    /// without its `.html` (`/embed` → `embed.html`): an address to type or paste into OBS, and
    /// one that stays at the root, so that the page's relative URLs resolve as index.html's do.
    public func resolve(_ urlPath: String) -> (path: String, mimeType: String)? {
        guard let relative = Self.normalize(urlPath) else { return nil }
        switch folder.resolve(relative) {
        case .file(let path):
            return (path, Self.mimeType(for: path))
        case .folder:
            guard case .file(let path) = folder.resolve(relative + "/index.html") else { return nil }
            return (path, Self.mimeType(for: path))
        case .missing where !(relative.split(separator: "/").last ?? "").contains("."):
            guard case .file(let path) = folder.resolve(relative + ".html") else { return nil }
            return (path, Self.mimeType(for: path))
        case .missing, .outside:
            return nil
        }
    }

    /// The pages made to be put in other sites' frames: the picture alone (`/embed`).
    static let framablePages: Set<String> = ["embed.html"]

    /// Whether the file at `path` (as ``resolve(_:)`` gave it) is a page any site may frame.
    public func framable(_ path: String) -> Bool {
        Self.framablePages.contains { path == root + "/" + $0 }
    }

    static let mimeTypes: [String: String] = [
        "html": "text/html; charset=utf-8", "htm": "text/html; charset=utf-8",
        "js": "text/javascript; charset=utf-8", "mjs": "text/javascript; charset=utf-8",
        "css": "text/css; charset=utf-8", "json": "application/json", "map": "application/json",
        "txt": "text/plain; charset=utf-8", "svg": "image/svg+xml", "png": "image/png",
        "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp",
        "ico": "image/x-icon", "woff2": "font/woff2", "woff": "font/woff", "wasm": "application/wasm",
        "webmanifest": "application/manifest+json", "mp4": "video/mp4", "m4v": "video/mp4",
        "mov": "video/quicktime", "mkv": "video/x-matroska", "webm": "video/webm",
    ]

    public static func mimeType(for path: String) -> String {
        let name = path.split(separator: "/").last ?? ""
        guard let dot = name.lastIndex(of: ".") else { return "application/octet-stream" }
        return mimeTypes[name[name.index(after: dot)...].lowercased()] ?? "application/octet-stream"
    }
}

public struct StaticFilesError: Error, CustomStringConvertible {
    public let description: String
}
