/// `text`: `filtercast: LEVEL: message key=value …`; `json`: one object per line.
public enum LogFormat: String, CaseIterable, Sendable {
    case text, json
}
