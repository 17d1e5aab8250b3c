/// The tables of the colour photo effects (fade, chrome, instant): luma rescaled to
/// `black…white` (lifted blacks, changed contrast), chroma deviations scaled by `saturation`
/// and shifted by a tint.
struct PhotoEffectTables {
    let y: [UInt8]
    let cb: [UInt8]
    let cr: [UInt8]

    init(black: Double, white: Double, saturation: Double, cbShift: Double, crShift: Double) {
        y = ColorEffectTables.table { black + $0 * (white - black) / 255 }
        cb = ColorEffectTables.table { 128 + ($0 - 128) * saturation + cbShift }
        cr = ColorEffectTables.table { 128 + ($0 - 128) * saturation + crShift }
    }

    func apply(to frame: Frame) {
        ColorEffectTables.map(frame.y, through: y)
        ColorEffectTables.map(frame.u, through: cb)
        ColorEffectTables.map(frame.v, through: cr)
    }
}
