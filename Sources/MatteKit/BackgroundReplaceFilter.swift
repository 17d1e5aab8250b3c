import FilterKit

/// `backgroundReplace`: keeps the person and paints the background one colour — black, white,
/// or green for keying downstream — or an uploaded picture (``UploadedBackground``, scaled to
/// cover the frame), mixed by the person matte. No matte leaves the frame unchanged. Built by
/// ``MatteCatalog``'s entry, which holds the engine.
///
/// A picture's background is cut at the first frame of a size and kept: later frames allocate
/// nothing (a new link is warmed with it, see ``FrameFilter/needsWarmUp``).
public final class BackgroundReplaceFilter: FrameFilter {
    /// The colours, with their full-range BT.601 Y, Cb, Cr (green: RGB 0, 255, 0).
    static let colours: [(choice: ParameterDescriptor.Choice, yuv: (UInt8, UInt8, UInt8))] = [
        (.init(id: "black", label: "Black", thumbnail: ""), (0, 128, 128)),
        (.init(id: "white", label: "White", thumbnail: ""), (255, 128, 128)),
        (.init(id: "green", label: "Green", thumbnail: ""), (150, 44, 21)),
    ]

    /// The entry with the colours alone (no uploaded background).
    public static let descriptor = describing(choices: colours.map(\.choice))

    /// The entry with `choices` as the backgrounds.
    static func describing(choices: [ParameterDescriptor.Choice]) -> FilterDescriptor {
        FilterDescriptor(name: "backgroundReplace", label: "Background Replace", category: .stylize, params: [
            .choice(name: "background", label: "Background", choices: choices, default: "green"),
        ])
    }

    private let colour: (UInt8, UInt8, UInt8)
    private let picture: UploadedBackground?
    private var backdrop: Frame?
    private var link: MatteLink

    /// The colour `background`, or `picture` (then `background` is its name).
    init(background: String, picture: UploadedBackground? = nil, engine: MatteEngine) {
        colour = (Self.colours.first { $0.choice.id == background } ?? Self.colours[0]).yuv
        self.picture = picture
        link = MatteLink(Self.descriptor.name, engine: engine)
    }

    public var needsWarmUp: Bool { link.needsWarmUp || (picture != nil && backdrop == nil) }

    public func apply(to frame: Frame) {
        guard let matte = link.matte(of: frame) else { return }
        if let backdrop = backdrop(for: frame) {
            MatteMix.mix(frame.y, with: backdrop.y, by: matte.luma)
            MatteMix.mix(frame.u, with: backdrop.u, by: matte.chroma)
            MatteMix.mix(frame.v, with: backdrop.v, by: matte.chroma)
            return
        }
        MatteMix.mix(frame.y, with: colour.0, by: matte.luma)
        MatteMix.mix(frame.u, with: colour.1, by: matte.chroma)
        MatteMix.mix(frame.v, with: colour.2, by: matte.chroma)
    }

    /// The picture's background at `frame`'s size, cut when the size changes; nil for a colour.
    private func backdrop(for frame: Frame) -> Frame? {
        guard let picture else { return nil }
        if let backdrop, backdrop.width == frame.width, backdrop.height == frame.height { return backdrop }
        backdrop = picture.frame(width: frame.width, height: frame.height)
        return backdrop
    }
}
