import CWebSockets
import Foundation
import Logging

/// libwebsockets' own messages, through the one logger: its errors at `warn`, its warnings at
/// `debug`, nothing else (its notices describe its internals, not the server).
enum WebSocketsLog {
    static func install() {
        lws_set_log_level(Int32(LLL_ERR | LLL_WARN), webSocketsLogCallback)
    }

    static func level(lws level: Int32) -> LogLevel { level & Int32(LLL_ERR) != 0 ? .warn : .debug }
}

private func webSocketsLogCallback(_ level: Int32, _ line: UnsafePointer<CChar>?) {
    guard let line else { return }
    let message = String(cString: line).trimmingCharacters(in: .whitespacesAndNewlines)
    guard !message.isEmpty else { return }
    Log.write(WebSocketsLog.level(lws: level), "libwebsockets: \(message)")
}
