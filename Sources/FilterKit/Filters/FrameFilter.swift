/// A filter ready to run: built once from validated ``FilterSettings`` (lookup tables and scratch
/// buffers are prepared in `init`), then applied in place to frame after frame. How it is built
/// is its catalog entry's business (``FilterCatalog/Entry``): from the settings alone
/// (``StandaloneFilter``), or with what the entry holds besides — an engine (`style`, the person
/// matte's filters), a LUT library.
///
/// Instances are not thread-safe and belong to the one thread that applies them; settings change
/// by building a new instance (see ``FilterRunner``).
public protocol FrameFilter: AnyObject, SendableMetatype {
    /// The catalog entry: name, label, category and parameters.
    static var descriptor: FilterDescriptor { get }

    /// Filters `frame` in place. Must not allocate in the steady state (same frame size).
    func apply(to frame: Frame)

    /// Whether the first frame of a size builds tables that take a while (the maps of a
    /// distortion or of cells: 10–120 ms at 1080p), so that a new instance is better readied in
    /// the background (see ``FilterRunner``). False unless a filter says so.
    static var buildsTablesOnFirstFrame: Bool { get }

    /// Whether this filter's first frame would take a while, so that it is better readied in the
    /// background (see ``FilterRunner``): ``buildsTablesOnFirstFrame`` unless a filter knows
    /// better (`style` while its network is not loaded yet).
    var needsWarmUp: Bool { get }

    /// Called on a new filter that replaces `previous` at its place in the chain (another filter,
    /// or the same one with other settings), before its first frame, on the chain's thread: a
    /// filter whose picture builds up over frames (`style`'s network beside the picture) takes
    /// over what it can, so a slider moved does not start it over. Nothing unless a filter says so.
    func inherit(from previous: any FrameFilter)

    /// How many times a second a filter that paints beside the frame path (`style`) refreshes its
    /// picture, measured; nil for filters that paint every frame themselves (all but `style`) and
    /// before the first measurement. Read on the chain's thread.
    var refreshRate: Double? { get }
}

extension FrameFilter {
    public static var buildsTablesOnFirstFrame: Bool { false }
    public var needsWarmUp: Bool { Self.buildsTablesOnFirstFrame }
    public func inherit(from previous: any FrameFilter) {}
    public var refreshRate: Double? { nil }
}

/// A filter built from its settings alone: what ``FilterCatalog/Entry/init(_:)`` builds. A filter
/// that needs more (an engine, a library) is not one, so nothing can build it without that.
public protocol StandaloneFilter: FrameFilter {
    /// Prepares the filter; `settings` were validated against ``FrameFilter/descriptor``.
    init(settings: FilterSettings)
}

/// The identity filter: frames pass unchanged.
public final class NoFilter: StandaloneFilter {
    public static let descriptor = FilterDescriptor(name: "none", label: "None", category: .none, params: [])
    public init(settings: FilterSettings) {}
    public func apply(to frame: Frame) {}
}
