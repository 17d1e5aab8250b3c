/// Fields that every line about one thing carries — `channel=NAME` on every line about a
/// channel —, written before the line's own fields. A value: copy it freely, use it from any
/// thread.
public struct LogScope: Sendable {
    /// The scope's fields, in order.
    public let fields: [(key: String, value: LogValue)]

    /// A scope whose lines carry `fields` (none: lines as `Log` writes them).
    public init(_ fields: KeyValuePairs<String, LogValue> = [:]) {
        self.fields = fields.map { ($0.key, $0.value) }
    }

    public func error(_ message: String, _ fields: KeyValuePairs<String, LogValue> = [:]) { write(.error, message, fields) }
    public func warning(_ message: String, _ fields: KeyValuePairs<String, LogValue> = [:]) { write(.warn, message, fields) }
    public func info(_ message: String, _ fields: KeyValuePairs<String, LogValue> = [:]) { write(.info, message, fields) }
    public func debug(_ message: String, _ fields: KeyValuePairs<String, LogValue> = [:]) { write(.debug, message, fields) }

    /// Writes `message` at `level`: the scope's fields, then `fields`.
    public func write(_ level: LogLevel, _ message: String, _ fields: KeyValuePairs<String, LogValue> = [:]) {
        Log.write(level, message, fields: line(fields))
    }

    /// The fields of a line of this scope: its own, then `fields`.
    func line(_ fields: KeyValuePairs<String, LogValue>) -> [(key: String, value: LogValue)] {
        self.fields + fields.map { ($0.key, $0.value) }
    }
}
