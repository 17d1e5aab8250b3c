/// Protocol v1: the WebSocket subprotocol name and the version number `hello` carries.
public enum ProtocolVersion {
    public static let number = 1
    public static let subprotocol = "filtercast.v1"
    /// The program's version (`filtercast --version`, `hello.server`).
    public static let programVersion = "0.1"
    /// The `server` field of `hello`: the program and its version.
    public static let serverName = "filtercast/" + programVersion
}
