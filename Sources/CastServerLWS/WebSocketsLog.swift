import CastServer
import CWebSockets
import Foundation
import Logging
import Synchronization

/// libwebsockets' own messages, through the one logger: its errors at `warn`, its warnings at
/// `debug`, nothing else (its notices describe its internals, not the server).
enum WebSocketsLog {
    static func install() {
        lws_set_log_level(Int32(LLL_ERR | LLL_WARN), webSocketsLogCallback)
    }

    static func level(lws level: Int32) -> LogLevel { level & Int32(LLL_ERR) != 0 ? .warn : .debug }

    /// While set, lws' lines are kept here instead of logged (see ``holdingLines(_:)``).
    fileprivate static let held = Mutex<[(level: LogLevel, message: String)]?>(nil)

    /// Runs `body` (context creation) with lws' lines held back, and returns its result and
    /// those lines. A caller that succeeds logs them with ``release(_:)``; one that fails turns
    /// them into its own one-line error (they stay visible at `debug`), so that a refused
    /// certificate is one line, not lws' three. One caller at a time (a process creates one
    /// context): lines another thread's lws logs meanwhile are held with these.
    static func holdingLines<Result>(_ body: () -> Result) -> (Result, [(level: LogLevel, message: String)]) {
        held.withLock { $0 = [] }
        let result = body()
        let lines = held.withLock { lines in
            defer { lines = nil }
            return lines ?? []
        }
        return (result, lines)
    }

    /// Logs lines held by ``holdingLines(_:)``, at `level` or at their own.
    static func release(_ lines: [(level: LogLevel, message: String)], at level: LogLevel? = nil) {
        for line in lines { Log.write(level ?? line.level, line.message) }
    }
}

private func webSocketsLogCallback(_ level: Int32, _ line: UnsafePointer<CChar>?) {
    guard let line else { return }
    let message = String(cString: line).trimmingCharacters(in: .whitespacesAndNewlines)
    guard !message.isEmpty else { return }
    let entry = (level: WebSocketsLog.level(lws: level), message: "libwebsockets: \(message)")
    let kept = WebSocketsLog.held.withLock { held -> Bool in
        guard held != nil else { return false }
        held!.append(entry)
        return true
    }
    if !kept { Log.write(entry.level, entry.message) }
}
