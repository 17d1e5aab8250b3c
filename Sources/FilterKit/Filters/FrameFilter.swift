/// A filter ready to run: built once from validated ``FilterSettings`` (lookup tables and scratch
/// buffers are prepared in `init`), then applied in place to frame after frame.
///
/// Instances are not thread-safe and belong to the one thread that applies them; settings change
/// by building a new instance (see ``FilterRunner``).
public protocol FrameFilter: AnyObject, SendableMetatype {
    /// The catalog entry: name, label, category and parameters.
    static var descriptor: FilterDescriptor { get }

    /// Prepares the filter; `settings` were validated against ``descriptor``.
    init(settings: FilterSettings)

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
}

extension FrameFilter {
    public static var buildsTablesOnFirstFrame: Bool { false }
    public var needsWarmUp: Bool { Self.buildsTablesOnFirstFrame }
}

/// The identity filter: frames pass unchanged.
public final class NoFilter: FrameFilter {
    public static let descriptor = FilterDescriptor(name: "none", label: "None", category: .none, params: [])
    public init(settings: FilterSettings) {}
    public func apply(to frame: Frame) {}
}
