import Foundation
import Synchronization

/// One-line log messages on standard error, at a level and in a format chosen once at start
/// (`configure`); safe from any thread. Each line is one `write(2)`, so lines from different
/// threads do not interleave.
///
/// A write that fails — a closed or broken pipe (`serve 2>&1 | head -1`), a full disk, a closed
/// descriptor — loses that line and nothing else: logging never stops or crashes the process.
public enum Log {
    private static let threshold = Atomic<Int>(LogLevel.info.rank)
    private static let usesJSON = Atomic<Bool>(false)

    public static func configure(level: LogLevel, format: LogFormat) {
        threshold.store(level.rank, ordering: .relaxed)
        usesJSON.store(format == .json, ordering: .relaxed)
    }

    /// The format chosen with `configure` (text until then).
    public static var format: LogFormat { usesJSON.load(ordering: .relaxed) ? .json : .text }

    public static func error(_ message: String, _ fields: KeyValuePairs<String, LogValue> = [:]) { write(.error, message, fields) }
    public static func warning(_ message: String, _ fields: KeyValuePairs<String, LogValue> = [:]) { write(.warn, message, fields) }
    public static func info(_ message: String, _ fields: KeyValuePairs<String, LogValue> = [:]) { write(.info, message, fields) }
    public static func debug(_ message: String, _ fields: KeyValuePairs<String, LogValue> = [:]) { write(.debug, message, fields) }

    /// Writes `message` at `level` (for bridges that map another library's levels).
    public static func write(_ level: LogLevel, _ message: String, _ fields: KeyValuePairs<String, LogValue> = [:]) {
        write(level, message, fields: fields.map { ($0.key, $0.value) })
    }

    /// Writes `message` at `level` with `fields` in their order (``LogScope`` puts its own first).
    static func write(_ level: LogLevel, _ message: String, fields: [(key: String, value: LogValue)]) {
        guard enabled(level) else { return }
        writeLine(line(format, level, message, fields, time: Date()), to: STDERR_FILENO)
    }

    /// The one line on standard output that says the program is ready (`filtercast: serving … at
    /// URL`), in the chosen format whatever the level: in text `filtercast: MESSAGE`, in JSON an
    /// object at level `info`. Scripts wait for it.
    public static func announce(_ message: String, _ fields: KeyValuePairs<String, LogValue> = [:]) {
        let text = format == .text ? "filtercast: \(message)" : line(.json, .info, message, fields, time: Date())
        writeLine(text, to: STDOUT_FILENO)
    }

    /// Whether messages at `level` are written (to skip building expensive ones).
    public static func enabled(_ level: LogLevel) -> Bool { level.rank <= threshold.load(ordering: .relaxed) }

    /// One `write(2)` of `text` and a newline (more only when the kernel takes part of it);
    /// failures are ignored. SIGPIPE must be ignored by the process (see ``ignoreBrokenPipes()``),
    /// or a write to a closed pipe kills it before `write` can fail.
    private static func writeLine(_ text: String, to descriptor: Int32) {
        var bytes = Array((text + "\n").utf8)
        bytes.withUnsafeMutableBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
    }

    /// Makes writes to a closed pipe or socket fail with EPIPE instead of killing the process.
    public static func ignoreBrokenPipes() { signal(SIGPIPE, SIG_IGN) }
}
