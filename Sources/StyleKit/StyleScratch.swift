import FilterKit

/// What styling frames of one size at one network size needs, allocated once for that pair: the
/// resamplers between the frame's planes and the network's size, and the network-size planes in
/// between. One thread at a time: the frame path keeps one per `style` link, the link's
/// ``StyleRefresher`` worker one of its own, the engine's direct path one under its lock.
///
/// A frame is styled in four steps. Its planes are reduced to the network's size (YUV, floats,
/// ``PlaneResampler``: ``reduce(_:into:)``); the network paints them and the picture is steadied
/// (``StyleEngine/paint(_:size:style:stabilizer:restart:into:)``: styled Y′, U′, V′ at the
/// network's size); then ``finish(_:styled:madeFrom:strength:detail:)`` carries that onto the
/// frame: at the network's size the styled planes — or, for a stylization made from another
/// frame, the current frame's reduced planes plus the stylization's difference from the planes it
/// was made from — with `detail` × the reduced luma taken off the luma; then the planes are
/// enlarged to the frame's and mixed into it: luma as `s·up(Y′ − d·Ysmall) + (s·d + 1 − s)·Y`,
/// which is the styled luma with the source's fine detail `d·(Y − up(Ysmall))` put back, mixed
/// with the source by `strength` s; chroma as `s·up(C′) + (1 − s)·C`.
final class StyleScratch {
    let frameSize: (width: Int, height: Int)
    let networkSize: StyleEngine.NetworkSize
    private let lumaDown: PlaneResampler
    private let chromaDown: PlaneResampler
    private let lumaUp: PlaneResampler
    private let chromaUp: PlaneResampler
    /// The network-size planes (Y, U, V): the frame's reduced, then the composed ones.
    let planes: UnsafeMutableBufferPointer<Float>
    /// The previous frame's reduced planes (``reduceJudgingCut(_:)``), once there was one.
    private let previous: UnsafeMutableBufferPointer<Float>
    private var hasPrevious = false

    init(width: Int, height: Int, network: StyleEngine.NetworkSize) {
        frameSize = (width, height)
        networkSize = network
        let small = (network.width, network.height), chroma = ((width + 1) / 2, (height + 1) / 2)
        lumaDown = PlaneResampler(from: (width, height), to: small)
        chromaDown = PlaneResampler(from: chroma, to: small)
        lumaUp = PlaneResampler(from: small, to: (width, height))
        chromaUp = PlaneResampler(from: small, to: chroma)
        planes = .allocate(capacity: 3 * network.width * network.height)
        previous = .allocate(capacity: 3 * network.width * network.height)
    }

    deinit {
        planes.deallocate()
        previous.deallocate()
    }

    /// Whether this scratch serves frames of `width × height` at the network size `network`.
    func fits(_ width: Int, _ height: Int, _ network: StyleEngine.NetworkSize) -> Bool {
        frameSize == (width, height) && networkSize == network
    }

    /// `frame`'s Y, U and V reduced to the network's size into `target` (3 planes of
    /// `networkSize.width × networkSize.height` floats, 0…255, one after another).
    func reduce(_ frame: Frame, into target: UnsafeMutablePointer<Float>) {
        let count = networkSize.width * networkSize.height
        reduce(frame.y, with: lumaDown, into: target)
        reduce(frame.u, with: chromaDown, into: target + count)
        reduce(frame.v, with: chromaDown, into: target + 2 &* count)
    }

    /// Reduces `frame` into ``planes``; whether it is a scene cut from the frame reduced before
    /// by this scratch (a mean change over ``StyleStabilizer/cut``; false for the first).
    func reduceJudgingCut(_ frame: Frame) -> Bool {
        let count = networkSize.width * networkSize.height, current = planes.baseAddress!
        reduce(frame, into: current)
        let cut = hasPrevious && StyleStabilizer.meanChange(y: current, u: current + count, v: current + 2 &* count,
                                                            from: previous.baseAddress!, count: count) > StyleStabilizer.cut
        _ = previous.update(fromContentsOf: planes)
        hasPrevious = true
        return cut
    }

    /// Carries the stylization `styled` (Y′, U′, V′ planes at the network's size) onto `frame`,
    /// whose reduced planes ``planes`` holds (``reduce(_:into:)``): made from this very frame
    /// (`madeFrom` nil) it is taken as it is; made from the reduced planes `madeFrom` of another,
    /// its difference from them is added to this frame's. Then the detail is put back and the
    /// result enlarged and mixed into `frame` by `strength` (see the type's description).
    func finish(_ frame: Frame, styled: UnsafePointer<Float>, madeFrom: UnsafePointer<Float>?, strength: Float, detail: Float) {
        let count = networkSize.width * networkSize.height, current = planes.baseAddress!
        // carried = δ·current + (styled − δ·source): exactly `styled` where δ = 0 (no other frame).
        let delta: Float = madeFrom == nil ? 0 : 1, source = madeFrom ?? styled
        for i in 0..<count {
            let luma = current[i]
            current[i] = delta * luma + (styled[i] - delta * source[i]) - detail * luma
        }
        for i in count..<3 &* count { current[i] = delta * current[i] + (styled[i] - delta * source[i]) }
        enlarge(current, with: lumaUp, into: frame.y, styled: strength, source: strength * detail + 1 - strength)
        enlarge(current + count, with: chromaUp, into: frame.u, styled: strength, source: 1 - strength)
        enlarge(current + 2 &* count, with: chromaUp, into: frame.v, styled: strength, source: 1 - strength)
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
