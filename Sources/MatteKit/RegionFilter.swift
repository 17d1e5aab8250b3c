import FilterKit

/// A link of a chain on one region (``FilterRegion``): its filter is applied to the whole
/// picture, then mixed with the link's input by the person matte — the filtered picture kept on
/// the person and the input on the background, or the other way round. It asks for the matte of
/// the frame as it reaches the link, which the thread's ``MatteStage`` makes once per frame for
/// every link and filter that asks; no matte (the network failed) leaves the frame unchanged. Made
/// by the region maker of ``MatteCatalog``'s catalog, which holds the engine.
///
/// A ``PassFilter``: the copy of the input and the filter (on the calling thread, where the matte
/// and filters with thread-bound state such as `style` belong), then the filter's own passes if
/// it has any, then the mix by bands of rows. The copy is made at the first frame of a size and
/// kept: later frames allocate nothing.
public final class RegionFilter: PassFilter {
    /// Not in any catalog: a region link is named by its filter (``FilterSettings/region``).
    public static let descriptor = FilterDescriptor(name: "region", label: "Region", category: .none, params: [])

    let filter: any FrameFilter
    public let region: FilterRegion
    private let passes: (any PassFilter)?
    private var link: MatteLink
    private var input: Frame?
    private var matte: Matte?
    private var filterPasses = 0

    /// `filter` (made for the whole picture) on `region`, which is not `all`.
    init(_ filter: any FrameFilter, region: FilterRegion, engine: MatteEngine) {
        precondition(region != .all, "a region link is on the person or the background")
        self.filter = filter
        self.region = region
        passes = filter as? any PassFilter
        link = MatteLink("\(type(of: filter).descriptor.name) on the \(region)", engine: engine)
    }

    public var needsWarmUp: Bool { filter.needsWarmUp || link.needsWarmUp }

    public func inherit(from previous: any FrameFilter) {
        filter.inherit(from: (previous as? RegionFilter)?.filter ?? previous)
    }

    public var refreshRate: Double? { filter.refreshRate }

    public func preparePasses(for frame: Frame, parts: Int) -> Int {
        guard let matte = link.matte(of: frame) else { return 0 }
        self.matte = matte
        let copy = scratch(for: frame)
        copy.copy(from: frame)
        if let passes {
            filterPasses = passes.preparePasses(for: frame, parts: parts)
            return filterPasses == 0 ? 0 : filterPasses + 1
        }
        filterPasses = 0
        filter.apply(to: frame)
        return 1
    }

    public func run(pass: Int, part: Int, of parts: Int, on frame: Frame) {
        if pass < filterPasses {
            passes!.run(pass: pass, part: part, of: parts, on: frame)
            return
        }
        guard let matte, let input else { preconditionFailure("a region link runs after preparePasses") }
        let rows = Partition.rows(part, of: parts, height: frame.height)
        let person = region == .person
        MatteMix.mix(frame.y, rows: rows, with: input.y, by: matte.luma, keepingOnPerson: person)
        let chromaRows = Partition.chromaRows(under: rows)
        MatteMix.mix(frame.u, rows: chromaRows, with: input.u, by: matte.chroma, keepingOnPerson: person)
        MatteMix.mix(frame.v, rows: chromaRows, with: input.v, by: matte.chroma, keepingOnPerson: person)
    }

    /// The copy for `frame`'s size, made when the size changes.
    private func scratch(for frame: Frame) -> Frame {
        if let input, input.width == frame.width, input.height == frame.height { return input }
        let copy = Frame(width: frame.width, height: frame.height)
        input = copy
        return copy
    }
}
