import FilterKit

/// Full-range BT.601 (the frames' colours) to and from the networks' RGB in 0…1, on `count`
/// pixels: Y, U and V as planes of floats, RGB laid out as a ``StyleModel/Layout``.
enum StyleColor {
    /// Where a pixel's R, G and B are: R of pixel i at `i·pixel`, G `channel` after it, B
    /// `channel` after G.
    private struct Steps {
        let pixel: Int
        let channel: Int

        init(_ layout: StyleModel.Layout, count: Int) {
            (pixel, channel) = layout == .planar ? (1, count) : (3, 1)
        }
    }

    /// RGB in 0…1, laid out as `layout`, from Y, U and V in 0…255.
    static func rgb(fromY y: UnsafePointer<Float>, u: UnsafePointer<Float>, v: UnsafePointer<Float>, count: Int,
                    into rgb: UnsafeMutablePointer<Float>, layout: StyleModel.Layout) {
        let steps = Steps(layout, count: count)
        for i in 0..<count {
            put(y[i], u[i], v[i], at: rgb + i &* steps.pixel, channel: steps.channel)
        }
    }

    /// Interleaved RGB in 0…1 of every pixel of `frame` (each chroma sample serves its 2×2 block).
    static func rgb(from frame: Frame, into rgb: UnsafeMutablePointer<Float>) {
        for row in 0..<frame.height {
            let luma = frame.y.row(row), cb = frame.u.row(row / 2), cr = frame.v.row(row / 2)
            for x in 0..<frame.width {
                put(Float(luma[x]), Float(cb[x / 2]), Float(cr[x / 2]), at: rgb + 3 &* (row &* frame.width &+ x), channel: 1)
            }
        }
    }

    /// One pixel's R at `red`, G `channel` after it, B `channel` after G, from Y, U and V in 0…255.
    @inline(__always)
    private static func put(_ y: Float, _ u: Float, _ v: Float, at red: UnsafeMutablePointer<Float>, channel: Int) {
        let scale: Float = 1 / 255, cb = u - 128, cr = v - 128
        red.pointee = min(max((y + 1.402 * cr) * scale, 0), 1)
        red[channel] = min(max((y - 0.344136 * cb - 0.714136 * cr) * scale, 0), 1)
        red[2 &* channel] = min(max((y + 1.772 * cb) * scale, 0), 1)
    }

    /// Y, U and V in 0…255 from RGB in 0…1 laid out as `layout`, into `y`, `u` and `v`.
    static func yuv(fromRGB rgb: UnsafePointer<Float>, layout: StyleModel.Layout, count: Int,
                    y: UnsafeMutablePointer<Float>, u: UnsafeMutablePointer<Float>, v: UnsafeMutablePointer<Float>) {
        let steps = Steps(layout, count: count)
        for i in 0..<count {
            let pixel = rgb + i &* steps.pixel
            let red = pixel.pointee * 255, green = pixel[steps.channel] * 255, blue = pixel[2 &* steps.channel] * 255
            y[i] = 0.299 * red + 0.587 * green + 0.114 * blue
            u[i] = 128 - 0.168736 * red - 0.331264 * green + 0.5 * blue
            v[i] = 128 + 0.5 * red - 0.418688 * green - 0.081312 * blue
        }
    }
}
