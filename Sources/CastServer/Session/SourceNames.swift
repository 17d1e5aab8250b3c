import MediaKit

/// What viewers call the start input (`state.source.name`): never the server's path to a file,
/// never the credentials or query (a stream key, a token) of a URL.
enum SourceNames {
    /// A file by its name, a URL as ``URLSources/shown(_:)`` shows it, the test pattern or a
    /// camera as the source names itself (`info.name`).
    static func input(_ input: InputSpec, opened info: SourceInfo) -> String {
        guard case .file(let path) = input else { return info.name }
        if path.contains("://") { return URLSources.shown(path) }
        return path.split(separator: "/").last.map(String.init) ?? path
    }
}
