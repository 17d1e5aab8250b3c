/// Full-range BT.601 (the frames' colours) to and from the network's RGB in 0…1, on planes of
/// `count` floats.
enum StyleColor {
    /// Planar RGB (R, G, B planes of `count`) in 0…1 from Y, U and V in 0…255.
    static func rgb(fromY y: UnsafePointer<Float>, u: UnsafePointer<Float>, v: UnsafePointer<Float>, count: Int,
                    into rgb: UnsafeMutablePointer<Float>) {
        let r = rgb, g = rgb + count, b = rgb + 2 &* count
        let scale: Float = 1 / 255
        for i in 0..<count {
            let luma = y[i], cb = u[i] - 128, cr = v[i] - 128
            r[i] = min(max((luma + 1.402 * cr) * scale, 0), 1)
            g[i] = min(max((luma - 0.344136 * cb - 0.714136 * cr) * scale, 0), 1)
            b[i] = min(max((luma + 1.772 * cb) * scale, 0), 1)
        }
    }

    /// Y, U and V in 0…255 from planar RGB in 0…1, overwriting `y`, `u` and `v`; `detail` × the
    /// old `y` is taken off the new luma (see ``StyleScratch``).
    static func yuv(fromRGB rgb: UnsafePointer<Float>, count: Int, detail: Float,
                    y: UnsafeMutablePointer<Float>, u: UnsafeMutablePointer<Float>, v: UnsafeMutablePointer<Float>) {
        let r = rgb, g = rgb + count, b = rgb + 2 &* count
        for i in 0..<count {
            let red = r[i] * 255, green = g[i] * 255, blue = b[i] * 255
            y[i] = 0.299 * red + 0.587 * green + 0.114 * blue - detail * y[i]
            u[i] = 128 - 0.168736 * red - 0.331264 * green + 0.5 * blue
            v[i] = 128 + 0.5 * red - 0.418688 * green - 0.081312 * blue
        }
    }
}
