import FilterKit

/// `backgroundReplace`: keeps the person and paints the background one colour — black, white,
/// or green for keying downstream — mixed by the person matte. No matte leaves the frame unchanged.
public final class BackgroundReplaceFilter: FrameFilter {
    /// The backgrounds, with their full-range BT.601 Y, Cb, Cr (green: RGB 0, 255, 0).
    static let backgrounds: [(choice: ParameterDescriptor.Choice, yuv: (UInt8, UInt8, UInt8))] = [
        (.init(id: "black", label: "Black", thumbnail: ""), (0, 128, 128)),
        (.init(id: "white", label: "White", thumbnail: ""), (255, 128, 128)),
        (.init(id: "green", label: "Green", thumbnail: ""), (150, 44, 21)),
    ]

    public static let descriptor = FilterDescriptor(name: "backgroundReplace", label: "Background Replace", category: .stylize, params: [
        .choice(name: "background", label: "Background", choices: backgrounds.map(\.choice), default: "green"),
    ])

    private let colour: (UInt8, UInt8, UInt8)
    private var link: MatteLink

    /// With the process's engine (``MatteEngine/shared``).
    public convenience init(settings: FilterSettings) {
        self.init(background: settings.choice("background"), engine: try? MatteEngine.shared.get())
    }

    init(background: String, engine: MatteEngine?) {
        colour = (Self.backgrounds.first { $0.choice.id == background } ?? Self.backgrounds[0]).yuv
        link = MatteLink(Self.descriptor.name, engine: engine)
    }

    public var needsWarmUp: Bool { link.needsWarmUp }

    public func apply(to frame: Frame) {
        guard let matte = link.matte(of: frame) else { return }
        MatteMix.mix(frame.y, with: colour.0, by: matte.luma)
        MatteMix.mix(frame.u, with: colour.1, by: matte.chroma)
        MatteMix.mix(frame.v, with: colour.2, by: matte.chroma)
    }
}
