/// Why the server cannot start or go on: a message naming the problem, for the log and the command line.
public struct ServerError: Error, CustomStringConvertible {
    public let description: String

    public init(description: String) { self.description = description }
}
