/// How much the server logs: each level includes the ones before it.
public enum LogLevel: String, CaseIterable, Sendable {
    case error, warn, info, debug

    var rank: Int { Self.allCases.firstIndex(of: self)! }
}
