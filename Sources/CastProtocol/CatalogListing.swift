import FilterKit

/// A catalog as `GET /api/filters` and `filtercast filters --json` give it:
/// `{"filters":[…],"regions":["all","person","background"]}` — the filters as `hello.filters`
/// has them, and the regions a chain link may name (v1 addition), absent where the catalog
/// offers `all` only (no person matte).
public struct CatalogListing: Encodable, Sendable {
    public let filters: [FilterDescriptor]
    public let regions: [String]?

    public init(_ catalog: FilterCatalog) {
        filters = catalog.descriptors
        regions = catalog.regions?.map(\.rawValue)
    }
}
