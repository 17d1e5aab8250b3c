import FilterKit

/// What making mattes of frames of one size needs, allocated once for that size and network:
/// the reducers to the network's size, its small pictures, the steadier's history, the guided
/// upsampler and the full-size matte. A frame's matte is made in three steps (timed apart for
/// `bench`): ``prepare`` (the frame reduced, the network's input filled), the network's run,
/// ``refine`` (steadied, brought to full size along the picture's edges).
///
/// Not thread-safe: one ``MatteStage`` (one thread) owns it.
final class MatteTrack {
    /// The frame a matte was made of: same size, time, number and discontinuity flag — a frame
    /// the chains of one channel see again (the preview's copy, a re-render) gets the same matte.
    struct FrameKey: Equatable {
        let time: Double
        let sequence: Int
        let isDiscontinuity: Bool
    }

    /// The frames' size, which the matte in ``luma`` has (``chroma`` at half of it).
    let width, height: Int
    /// The network the frames are reduced for: its input size is ``small``'s.
    let model: MatteModel
    /// The frame the matte in ``luma``/``chroma`` is of; nil until one is made.
    var made: FrameKey?
    private let lumaReducer: AreaReducer
    private let chromaReducer: AreaReducer
    private let steadier: MatteSteadier
    private let upsampler: GuidedUpsampler
    /// Reduced Y, U, V (0…255), then the guide (Y in 0…1), each `model.width × model.height`.
    private let small: UnsafeMutableBufferPointer<Float>
    private let luma: UnsafeMutableBufferPointer<UInt8>
    private let chroma: UnsafeMutableBufferPointer<UInt8>

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        model = .forFrame(width: width, height: height)
        let net = (model.width, model.height), count = model.width * model.height
        lumaReducer = AreaReducer(from: (width, height), to: net)
        chromaReducer = AreaReducer(from: ((width + 1) / 2, (height + 1) / 2), to: net)
        steadier = MatteSteadier(count: count)
        upsampler = GuidedUpsampler(from: net, to: (width, height))
        small = .allocate(capacity: 4 * count)
        luma = .allocate(capacity: width * height)
        chroma = .allocate(capacity: ((width + 1) / 2) * ((height + 1) / 2))
    }

    deinit {
        small.deallocate()
        luma.deallocate()
        chroma.deallocate()
    }

    /// The matte of the last frame refined.
    var matte: Matte {
        Matte(width: width, height: height, luma: UnsafePointer(luma.baseAddress!), chroma: UnsafePointer(chroma.baseAddress!))
    }

    /// Reduces `frame` to the network's size and fills `input` (interleaved RGB, 0…1) from it.
    func prepare(_ frame: Frame, input: UnsafeMutablePointer<Float>) {
        let count = model.width &* model.height
        let y = small.baseAddress!, u = y + count, v = u + count, guide = v + count
        lumaReducer.reduce(frame.y, into: y)
        chromaReducer.reduce(frame.u, into: u)
        chromaReducer.reduce(frame.v, into: v)
        // Full-range BT.601, as the frames are (FilterKit's Frame), to the network's RGB in 0…1.
        let scale: Float = 1 / 255
        for i in 0..<count {
            let luma = y[i], cb = u[i] - 128, cr = v[i] - 128, pixel = input + 3 &* i
            pixel[0] = min(max((luma + 1.402 * cr) * scale, 0), 1)
            pixel[1] = min(max((luma - 0.344136 * cb - 0.714136 * cr) * scale, 0), 1)
            pixel[2] = min(max((luma + 1.772 * cb) * scale, 0), 1)
            guide[i] = luma * scale
        }
    }

    /// Steadies the network's `output` for `frame` (the one last prepared) and brings it to full
    /// size into ``matte``.
    func refine(_ output: UnsafePointer<Float>, of frame: Frame) {
        let count = model.width &* model.height, guide = UnsafePointer(small.baseAddress! + 3 &* count)
        let steady = steadier.steady(output, guide: guide, restart: frame.isDiscontinuity)
        upsampler.upsample(steady, guide: guide, luma: frame.y, into: luma.baseAddress!)
        halve()
        made = FrameKey(time: frame.time, sequence: frame.sequence, isDiscontinuity: frame.isDiscontinuity)
    }

    /// The chroma-size matte: the rounded mean of each 2×2 block (edges repeated at odd sizes).
    private func halve() {
        let source = luma.baseAddress!, target = chroma.baseAddress!, half = (width + 1) / 2, lastX = width &- 1
        for j in 0..<((height + 1) / 2) {
            let top = source + 2 &* j &* width, bottom = source + min(2 &* j &+ 1, height &- 1) &* width
            let row = target + j &* half
            for i in 0..<half {
                let left = 2 &* i, right = min(left &+ 1, lastX)
                let sum = UInt16(top[left]) &+ UInt16(top[right]) &+ UInt16(bottom[left]) &+ UInt16(bottom[right])
                row[i] = UInt8(truncatingIfNeeded: (sum &+ 2) &>> 2)
            }
        }
    }
}
