/// Which of a session's two filter chains a command is about (studio mode): the *program*, what
/// every viewer sees, or the *preview*, what only controllers see until a `take` puts it on air.
///
/// On the wire it is a command's `"to"` (`setFilter`, `setParams`) or `"from"` field, absent
/// meaning the program, so that a v1 client that never names one is served as before.
public enum ChainTarget: String, Sendable, Equatable, CaseIterable {
    case program
    case preview
}

extension CommandFields {
    /// The chain field `key` (`"to"` or `"from"`) names: `"program"` or `"preview"`, the program
    /// when absent. The one place the field is read, for every command that takes one.
    func chainTarget(_ key: String) throws(ProtocolError) -> ChainTarget {
        guard fields[key] != nil else { return .program }
        return ChainTarget(rawValue: try choice(key, of: ChainTarget.allCases.map(\.rawValue)))!
    }
}

extension ChainTarget {
    /// What an activity sentence adds for this chain: " in the preview" for the preview's, nothing
    /// for the program's.
    var activitySuffix: String { self == .preview ? " in the preview" : "" }
}
