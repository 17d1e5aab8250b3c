import FilterKit

/// `matte`: shows the person matte as grey — white the person, black the background — for
/// checking what the network sees. Where there is no matte (the network failed) the frame is
/// unchanged. Built by ``MatteCatalog``'s entry, which holds the engine.
public final class MatteFilter: FrameFilter {
    public static let descriptor = FilterDescriptor(name: "matte", label: "Person Matte", category: .stylize, params: [])

    private var link: MatteLink

    init(engine: MatteEngine) {
        link = MatteLink(Self.descriptor.name, engine: engine)
    }

    public var needsWarmUp: Bool { link.needsWarmUp }

    public func apply(to frame: Frame) {
        guard let matte = link.matte(of: frame) else { return }
        for y in 0..<frame.height { frame.y.row(y).update(from: matte.luma + y &* matte.width, count: frame.width) }
        frame.u.fill(128)
        frame.v.fill(128)
    }
}
