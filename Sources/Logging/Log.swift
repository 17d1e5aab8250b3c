import Foundation
import Synchronization

/// One-line log messages on standard error, at a level and in a format chosen once at start
/// (`configure`); safe from any thread. Each line is one `write(2)`, so lines from different
/// threads do not interleave.
public enum Log {
    private static let threshold = Atomic<Int>(LogLevel.info.rank)
    private static let usesJSON = Atomic<Bool>(false)

    public static func configure(level: LogLevel, format: LogFormat) {
        threshold.store(level.rank, ordering: .relaxed)
        usesJSON.store(format == .json, ordering: .relaxed)
    }

    public static func error(_ message: String, _ fields: KeyValuePairs<String, LogValue> = [:]) { write(.error, message, fields) }
    public static func warning(_ message: String, _ fields: KeyValuePairs<String, LogValue> = [:]) { write(.warn, message, fields) }
    public static func info(_ message: String, _ fields: KeyValuePairs<String, LogValue> = [:]) { write(.info, message, fields) }
    public static func debug(_ message: String, _ fields: KeyValuePairs<String, LogValue> = [:]) { write(.debug, message, fields) }

    /// Whether messages at `level` are written (to skip building expensive ones).
    public static func enabled(_ level: LogLevel) -> Bool { level.rank <= threshold.load(ordering: .relaxed) }

    private static func write(_ level: LogLevel, _ message: String, _ fields: KeyValuePairs<String, LogValue>) {
        guard enabled(level) else { return }
        let format: LogFormat = usesJSON.load(ordering: .relaxed) ? .json : .text
        FileHandle.standardError.write(Data((line(format, level, message, fields, time: Date()) + "\n").utf8))
    }
}
