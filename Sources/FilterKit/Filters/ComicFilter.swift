/// CIComicEffect-like: posterized, slightly punchier colours with dark ink on the edges.
///
/// Luma is quantised to `levels` flat tones; where the Sobel gradient of the original luma
/// exceeds `edgeThreshold` (1 = a full black-to-white step) the pixel is inked black.
public final class ComicFilter: FrameFilter {
    public static let descriptor = FilterDescriptor(
        name: "comic", label: "Comic", category: .stylize,
        params: [
            ParameterDescriptor(name: "levels", label: "Tones", type: .integer, default: 5, min: 2, max: 16, step: 1),
            ParameterDescriptor(name: "edgeThreshold", label: "Ink threshold", default: 0.2, min: 0.02, max: 2,
                                sliderMax: 1, step: 0.01),
        ])

    /// Sobel |gx| + |gy| above which a pixel is inked.
    private let inkThreshold: Int
    private let toneTable: UnsafeMutablePointer<UInt8>
    private let chromaTable: UnsafeMutablePointer<UInt8>
    /// A copy of the original luma: the gradient must not see inked pixels.
    private var scratch: Frame?

    public init(settings: FilterSettings) {
        let levels = Int(settings["levels"])
        inkThreshold = Int((settings["edgeThreshold"] * 4 * 255).rounded())
        toneTable = .allocate(capacity: 256)
        chromaTable = .allocate(capacity: 256)
        for value in 0..<256 {
            let level = value * levels / 256
            toneTable[value] = UInt8(level * 255 / (levels - 1))
            chromaTable[value] = UInt8(min(255, max(0, 128 + (value - 128) * 5 / 4)))
        }
    }

    deinit {
        toneTable.deallocate()
        chromaTable.deallocate()
    }

    public func apply(to frame: Frame) {
        Self.map(frame.u, through: chromaTable)
        Self.map(frame.v, through: chromaTable)
        let width = frame.width, height = frame.height
        if scratch?.width != width || scratch?.height != height {
            scratch = Frame(width: width, height: height)
        }
        let original = scratch!.y
        original.copy(from: frame.y)
        let toneTable = toneTable, threshold = inkThreshold
        for y in 0..<height {
            let output = frame.y.row(y), middle = original.row(y)
            guard y > 0, y < height &- 1, width > 2 else {
                for x in 0..<width { output[x] = toneTable[Int(middle[x])] }
                continue
            }
            let above = original.row(y &- 1), below = original.row(y &+ 1)
            output[0] = toneTable[Int(middle[0])]
            output[width &- 1] = toneTable[Int(middle[width &- 1])]
            for x in 1..<(width &- 1) {
                let l = x &- 1, r = x &+ 1
                let gx = (Int(above[r]) &+ 2 &* Int(middle[r]) &+ Int(below[r]))
                    &- (Int(above[l]) &+ 2 &* Int(middle[l]) &+ Int(below[l]))
                let gy = (Int(below[l]) &+ 2 &* Int(below[x]) &+ Int(below[r]))
                    &- (Int(above[l]) &+ 2 &* Int(above[x]) &+ Int(above[r]))
                output[x] = abs(gx) &+ abs(gy) > threshold ? 0 : toneTable[Int(middle[x])]
            }
        }
    }

    static func map(_ plane: Plane, through table: UnsafeMutablePointer<UInt8>) {
        for y in 0..<plane.height {
            let row = plane.row(y)
            for x in 0..<plane.width { row[x] = table[Int(row[x])] }
        }
    }
}
