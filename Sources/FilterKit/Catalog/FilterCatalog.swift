/// The filters a server offers, in picker order ("none" first), and how to build each.
public struct FilterCatalog: Sendable {
    /// One filter: its catalog entry and how to build it from validated settings.
    public struct Entry: Sendable {
        public let descriptor: FilterDescriptor
        let make: @Sendable (FilterSettings) -> any FrameFilter

        public init<F: FrameFilter>(_ type: F.Type) {
            descriptor = F.descriptor
            make = { F(settings: $0) }
        }
    }

    public let entries: [Entry]

    public init(_ entries: [Entry]) {
        self.entries = entries
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

    public var descriptors: [FilterDescriptor] { entries.map(\.descriptor) }
    public var names: [String] { entries.map(\.descriptor.name) }

    public func descriptor(named name: String) -> FilterDescriptor? {
        entries.first { $0.descriptor.name == name }?.descriptor
    }

    /// A ready filter for `settings`, which were validated against this catalog
    /// (``FilterSettings/init(name:parameters:catalog:)``).
    public func makeFilter(_ settings: FilterSettings) -> any FrameFilter {
        guard let entry = entries.first(where: { $0.descriptor.name == settings.name }) else {
            preconditionFailure("settings for '\(settings.name)' were not validated against this catalog")
        }
        return entry.make(settings)
    }
}
