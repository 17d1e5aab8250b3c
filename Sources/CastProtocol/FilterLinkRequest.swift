import FilterKit

/// One link of a `setFilter` chain as the client sent it: a filter name, some parameters and a
/// region (`all` when left out), not yet checked against the catalog (defaults fill the
/// parameters left out; a catalog without a person matte refuses any region but `all`).
public struct FilterLinkRequest: Sendable, Equatable {
    public let name: String
    public let params: [String: ParameterValue]
    public let region: FilterRegion

    public init(name: String, params: [String: ParameterValue] = [:], region: FilterRegion = .all) {
        self.name = name
        self.params = params
        self.region = region
    }

    /// The link as ``FilterChain/init(validating:catalog:)`` takes it.
    public var unvalidated: (name: String, parameters: [String: ParameterValue], region: FilterRegion) {
        (name, params, region)
    }
}
