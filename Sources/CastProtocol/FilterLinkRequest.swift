import FilterKit

/// One link of a `setFilter` chain as the client sent it: a filter name and some parameters, not
/// yet checked against the catalog (defaults fill the parameters left out).
public struct FilterLinkRequest: Sendable, Equatable {
    public let name: String
    public let params: [String: ParameterValue]

    public init(name: String, params: [String: ParameterValue] = [:]) {
        self.name = name
        self.params = params
    }
}
