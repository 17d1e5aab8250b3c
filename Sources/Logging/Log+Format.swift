import Foundation

/// Rendering of log lines: text for people, JSON for machines.
extension Log {
    /// One log line without its newline. JSON lines carry `time` (UTC, ISO 8601 with
    /// milliseconds), `level`, `message`, then the fields (which must not reuse those names).
    static func line(_ format: LogFormat, _ level: LogLevel, _ message: String,
                     _ fields: KeyValuePairs<String, LogValue>, time: Date) -> String {
        line(format, level, message, fields.map { ($0.key, $0.value) }, time: time)
    }

    /// The same with `fields` in an array (a ``LogScope``'s and the line's own, in order).
    static func line(_ format: LogFormat, _ level: LogLevel, _ message: String,
                     _ fields: [(key: String, value: LogValue)], time: Date) -> String {
        switch format {
        case .text:
            // Control characters become spaces: a message cannot break its line.
            let flat = String(String.UnicodeScalarView(message.unicodeScalars.map {
                $0.value < 0x20 || $0.value == 0x7F ? " " : $0
            }))
            var text = "filtercast: \(level.rawValue): \(flat)"
            for (key, value) in fields { text += " \(key)=\(textValue(value))" }
            return text
        case .json:
            var text = "{\"time\":\(jsonString(timestamp(time))),\"level\":\(jsonString(level.rawValue)),"
                + "\"message\":\(jsonString(message))"
            for (key, value) in fields { text += ",\(jsonString(key)):\(jsonValue(value))" }
            return text + "}"
        }
    }

    /// A string as a JSON string literal (RFC 8259: quote, backslash and control characters escaped).
    static func jsonString(_ string: String) -> String {
        var out = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                out += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    private static func jsonValue(_ value: LogValue) -> String {
        switch value {
        case .string(let string): jsonString(string)
        case .int(let int): String(int)
        case .double(let double): double.isFinite ? String(double) : "null"
        case .bool(let bool): String(bool)
        }
    }

    /// Bare when it is one plain word, else quoted like JSON (so a value cannot fake a field).
    private static func textValue(_ value: LogValue) -> String {
        guard case .string(let string) = value else { return jsonValue(value) }
        let plain = !string.isEmpty && string.unicodeScalars.allSatisfy {
            $0.value > 0x20 && $0.value != 0x7F && $0 != "\"" && $0 != "=" && $0 != "\\"
        }
        return plain ? string : jsonString(string)
    }

    private static func timestamp(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        var seconds = time_t(milliseconds / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : String(value) }
        let millis = String(milliseconds % 1000)
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):"
            + "\(two(parts.tm_min)):\(two(parts.tm_sec)).\(String(repeating: "0", count: 3 - millis.count))\(millis)Z"
    }
}
