/// The filters a server offers, in picker order ("none" first), and how to build each.
public struct FilterCatalog: Sendable {
    /// One filter: its catalog entry and how to build it from validated settings.
    public struct Entry: Sendable {
        /// The entry as it is now: fixed for most filters; read afresh at every use for a filter
        /// whose options change while the server runs (`lut`'s LUTs), nil while it has none (it
        /// is then left out of the catalog).
        let describe: @Sendable () -> FilterDescriptor?
        let make: @Sendable (FilterSettings) -> any FrameFilter

        public init<F: StandaloneFilter>(_ type: F.Type) {
            let descriptor = F.descriptor
            describe = { descriptor }
            make = { F(settings: $0) }
        }

        /// A filter whose entry is `describe`'s answer at each use; `make` builds it from settings
        /// validated against that answer.
        public init(describe: @escaping @Sendable () -> FilterDescriptor?,
                    make: @escaping @Sendable (FilterSettings) -> any FrameFilter) {
            self.describe = describe
            self.make = make
        }

        /// The catalog entry now (nil: not offered now).
        public var descriptor: FilterDescriptor? { describe() }
    }

    public let entries: [Entry]

    /// Makes a link of a region other than `all` from the link's filter (built for the whole
    /// picture) and its region; on the chain's thread.
    public typealias RegionMaker = @Sendable (_ filter: any FrameFilter, _ region: FilterRegion) -> any FrameFilter

    /// How links on a region are made; nil where there is no person matte (then only `all`).
    let regionMaker: RegionMaker?

    public init(_ entries: [Entry], regionMaker: RegionMaker? = nil) {
        self.entries = entries
        self.regionMaker = regionMaker
    }

    /// The regions a link may name (``FilterRegion``), nil when the catalog offers `all` only.
    public var regions: [FilterRegion]? { regionMaker == nil ? nil : FilterRegion.allCases }

    /// This catalog, its links allowed on any region, made by `maker`.
    public func offeringRegions(_ maker: @escaping RegionMaker) -> FilterCatalog {
        FilterCatalog(entries, regionMaker: maker)
    }

    /// The catalog, grouped by category (the page shows it in this order).
    public static let standard = FilterCatalog([
        Entry(NoFilter.self),
        Entry(ColorControlsFilter.self), Entry(HueAdjustFilter.self), Entry(ExposureFilter.self),
        Entry(GammaFilter.self), Entry(VibranceFilter.self), Entry(TemperatureFilter.self),
        Entry(SepiaFilter.self), Entry(MonoFilter.self), Entry(NoirFilter.self), Entry(InvertFilter.self),
        Entry(ColorMonochromeFilter.self), Entry(PosterizeFilter.self), Entry(ThermalFilter.self),
        Entry(XRayFilter.self), Entry(FalseColorFilter.self), Entry(ChromeFilter.self), Entry(FadeFilter.self),
        Entry(InstantFilter.self),
        Entry(GaussianBlurFilter.self), Entry(BoxBlurFilter.self), Entry(MotionBlurFilter.self),
        Entry(SharpenFilter.self), Entry(UnsharpMaskFilter.self),
        Entry(PixellateFilter.self), Entry(HexagonalPixellateFilter.self), Entry(CrystallizeFilter.self),
        Entry(PointillizeFilter.self), Entry(ComicFilter.self), Entry(VignetteFilter.self),
        Entry(EdgesFilter.self), Entry(EdgeWorkFilter.self), Entry(BloomFilter.self), Entry(GloomFilter.self),
        Entry(TwirlFilter.self), Entry(BumpFilter.self), Entry(PinchFilter.self), Entry(KaleidoscopeFilter.self),
    ])

    /// The filters offered now, in picker order.
    public var descriptors: [FilterDescriptor] { entries.compactMap(\.descriptor) }
    public var names: [String] { descriptors.map(\.name) }

    public func descriptor(named name: String) -> FilterDescriptor? {
        descriptors.first { $0.name == name }
    }

    /// This catalog with `entry` added after the last filter of its category (at the end when it has none).
    public func adding(_ entry: Entry, category: FilterDescriptor.Category) -> FilterCatalog {
        var entries = entries
        let position = (entries.lastIndex { $0.descriptor?.category == category }).map { $0 + 1 } ?? entries.count
        entries.insert(entry, at: position)
        return FilterCatalog(entries, regionMaker: regionMaker)
    }

    /// A ready filter for `settings`, which were validated against this catalog
    /// (``FilterSettings/init(name:parameters:region:catalog:)``): on a region, the filter for the
    /// whole picture wrapped by the catalog's region maker.
    public func makeFilter(_ settings: FilterSettings) -> any FrameFilter {
        guard let entry = entries.first(where: { $0.descriptor?.name == settings.name }) else {
            preconditionFailure("settings for '\(settings.name)' were not validated against this catalog")
        }
        let filter = entry.make(settings)
        guard settings.region != .all else { return filter }
        guard let regionMaker else {
            preconditionFailure("settings on the \(settings.region) were not validated against this catalog")
        }
        return regionMaker(filter, settings.region)
    }
}
