import FilterKit

/// What styling frames of one size needs, allocated once for that size (kept by the engine, used
/// under its lock): the resamplers between the
/// frame's planes and the network's size, and the network-size planes in between.
///
/// A frame is styled in four steps. Its planes are reduced to the network's size (YUV, floats,
/// ``PlaneResampler``) and converted to RGB in 0…1 into the network's input; the network runs and
/// its picture is steadied against the link's previous one (``StyleStabilizer``); that RGB is converted back to YUV at its size, with `detail` × the reduced source luma taken off
/// the luma; then the planes are enlarged to the frame's and mixed into it: luma as
/// `s·up(Y′ − d·Ysmall) + (s·d + 1 − s)·Y`, which is the styled luma with the source's fine detail
/// `d·(Y − up(Ysmall))` put back, mixed with the source by `strength` s; chroma as `s·up(C′) + (1 − s)·C`.
final class StyleScratch {
    let frameSize: (width: Int, height: Int)
    let networkSize: StyleEngine.NetworkSize
    private let lumaDown: PlaneResampler
    private let chromaDown: PlaneResampler
    private let lumaUp: PlaneResampler
    private let chromaUp: PlaneResampler
    /// The network-size planes: the source's reduced, then (after the run) the styled ones.
    private let planes: UnsafeMutableBufferPointer<Float>
    private let clock = ContinuousClock()

    init(width: Int, height: Int, network: StyleEngine.NetworkSize) {
        frameSize = (width, height)
        networkSize = network
        let small = (network.width, network.height), chroma = ((width + 1) / 2, (height + 1) / 2)
        lumaDown = PlaneResampler(from: (width, height), to: small)
        chromaDown = PlaneResampler(from: chroma, to: small)
        lumaUp = PlaneResampler(from: small, to: (width, height))
        chromaUp = PlaneResampler(from: small, to: chroma)
        planes = .allocate(capacity: 3 * network.width * network.height)
    }

    deinit { planes.deallocate() }

    /// Styles `frame` in place through `network` (compiled for ``networkSize``, its style input
    /// set), its picture steadied by the link's `stabilizer` (started over at a discontinuity); the
    /// network's run time, or OpenVINO's error if the run failed (the frame is then unchanged).
    func stylize(_ frame: Frame, network: StyleNetwork, strength: Float, detail: Float,
                 stabilizer: StyleStabilizer) -> Result<Duration, StyleUnavailable> {
        let count = networkSize.width * networkSize.height
        let y = planes.baseAddress!, u = y + count, v = u + count
        reduce(frame.y, with: lumaDown, into: y)
        reduce(frame.u, with: chromaDown, into: u)
        reduce(frame.v, with: chromaDown, into: v)
        let layout = network.model.layout
        StyleColor.rgb(fromY: y, u: u, v: v, count: count, into: network.input.baseAddress!, layout: layout)
        let start = clock.now
        let output = network.run()
        let run = clock.now - start
        switch output {
        case .success(let rgb):
            let steady = stabilizer.steady(rgb, layout: layout, count: count, y: y, u: u, v: v, restart: frame.isDiscontinuity)
            StyleColor.yuv(fromRGB: steady, layout: layout, count: count, detail: detail, y: y, u: u, v: v)
        case .failure(let error): return .failure(error)
        }
        enlarge(y, with: lumaUp, into: frame.y, styled: strength, source: strength * detail + 1 - strength)
        enlarge(u, with: chromaUp, into: frame.u, styled: strength, source: 1 - strength)
        enlarge(v, with: chromaUp, into: frame.v, styled: strength, source: 1 - strength)
        return .success(run)
    }

    private func reduce(_ plane: Plane, with resampler: PlaneResampler, into target: UnsafeMutablePointer<Float>) {
        let width = networkSize.width
        resampler.resample({ UnsafePointer(plane.row($0)) }, as: { Float($0) }) { row, values in
            (target + row &* width).update(from: values.baseAddress!, count: width)
        }
    }

    /// `plane = styled · up(small) + source · plane`, rounded and clamped to 0…255.
    private func enlarge(_ small: UnsafeMutablePointer<Float>, with resampler: PlaneResampler, into plane: Plane,
                         styled: Float, source: Float) {
        let width = networkSize.width
        resampler.resample({ UnsafePointer(small + $0 &* width) }, as: { $0 }) { row, values in
            let target = plane.row(row)
            for x in 0..<plane.width {
                // A NaN (a network gone wrong) gives 0 rather than a trap.
                target[x] = roundedSample(styled * values[x] + source * Float(target[x]))
            }
        }
    }
}
