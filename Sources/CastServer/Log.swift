import Foundation

/// One-line log messages on standard error.
enum Log {
    static func info(_ message: String) { write("info", message) }
    static func warning(_ message: String) { write("warning", message) }

    private static func write(_ level: String, _ message: String) {
        FileHandle.standardError.write(Data("filtercast: \(level): \(message)\n".utf8))
    }
}
