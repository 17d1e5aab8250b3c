/// The current "filter": validated ``FilterSettings`` applied one after another, 0 to
/// ``maximumLength`` links. The empty chain is the `none` filter; `none` is never a link.
public struct FilterChain: Sendable, Equatable, CustomStringConvertible {
    /// The most links a chain may have.
    public static let maximumLength = 8

    /// The links in the order they are applied; empty for no filter.
    public let links: [FilterSettings]

    /// No filter.
    public static let none = FilterChain(uncheckedLinks: [])

    /// A chain of one (`none` gives the empty chain).
    public init(_ settings: FilterSettings) {
        self.init(uncheckedLinks: settings == .none ? [] : [settings])
    }

    /// Checks the length and that `none` stands alone: `[none]` is the empty chain, `none` among
    /// other links is refused rather than silently dropped (it would shift every later index).
    public init(_ links: [FilterSettings]) throws(FilterError) {
        guard links.count <= Self.maximumLength else {
            throw .chainTooLong(count: links.count, maximum: Self.maximumLength)
        }
        if links == [.none] {
            self = .none
            return
        }
        if let index = links.firstIndex(of: .none) {
            throw .noneInChain(index: index, count: links.count)
        }
        self.init(uncheckedLinks: links)
    }

    /// Validates every link against `catalog`; a link's error names its index
    /// (``FilterError/inChain(index:_:)``).
    public init(validating requests: [(name: String, parameters: [String: ParameterValue], region: FilterRegion)],
                catalog: FilterCatalog = .standard) throws(FilterError) {
        guard requests.count <= Self.maximumLength else {
            throw .chainTooLong(count: requests.count, maximum: Self.maximumLength)
        }
        var links: [FilterSettings] = []
        for (index, request) in requests.enumerated() {
            do {
                links.append(try FilterSettings(name: request.name, parameters: request.parameters, region: request.region,
                                                catalog: catalog))
            } catch {
                throw .inChain(index: index, error)
            }
        }
        try self.init(links)
    }

    private init(uncheckedLinks links: [FilterSettings]) {
        self.links = links
    }

    /// The first link, or `none` for the empty chain: the single filter of older clients.
    public var first: FilterSettings { links.first ?? .none }

    /// How many links ``replacingParameters(at:with:catalog:)`` can address: the empty chain has
    /// one, the `none` filter.
    public var addressableCount: Int { max(1, links.count) }

    /// The chain with some parameters of link `index` changed (the others keep their values, the
    /// link its region), validated against `catalog`. `index` must be below ``addressableCount``.
    public func replacingParameters(at index: Int, with parameters: [String: ParameterValue],
                                    catalog: FilterCatalog = .standard) throws(FilterError) -> FilterChain {
        precondition(index >= 0 && index < addressableCount, "link \(index) of a chain of \(links.count)")
        let link = links.isEmpty ? FilterSettings.none : links[index]
        let changed = try FilterSettings(name: link.name, parameters: link.parameters.merging(parameters) { $1 },
                                         region: link.region, catalog: catalog)
        if links.isEmpty { return self }
        var updated = links
        updated[index] = changed
        return FilterChain(uncheckedLinks: updated)
    }

    public var description: String {
        links.isEmpty ? "none" : links.map(\.description).joined(separator: " → ")
    }
}
