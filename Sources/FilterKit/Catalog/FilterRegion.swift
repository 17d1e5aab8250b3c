/// Where a link of a chain applies (a v1 addition): everywhere (the default, and all a v1 client
/// knows), or on the person or the background only — the link is applied to the whole picture,
/// then mixed with its input by the person matte. Only a catalog that can make a matte offers the
/// other two (``FilterCatalog/regions``).
public enum FilterRegion: String, Sendable, CaseIterable, CustomStringConvertible {
    case all, person, background

    public var description: String { rawValue }
}
