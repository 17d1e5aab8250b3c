/// How each position of a resampled line is made from the source line: a window of `taps` source
/// samples from `starts[i]`, weighted by `weights[i * taps ..< (i + 1) * taps]` (summing to 1).
///
/// The filter is a triangle as wide as the larger of one source and one destination sample: bilinear
/// when enlarging, an averaging (area-like) filter when reducing, so that a picture made smaller for
/// the network does not alias. A window holds only the samples the triangle weighs (two when
/// enlarging); windows stay inside the source, taps that would fall outside are dropped and the rest
/// renormalised.
struct AxisWeights {
    let source: Int
    let destination: Int
    let taps: Int
    let starts: [Int]
    let weights: [Float]

    init(from source: Int, to destination: Int) {
        precondition(source > 0 && destination > 0, "resampling \(source) → \(destination)")
        self.source = source
        self.destination = destination
        let scale = Double(source) / Double(destination)
        let support = max(1, scale)
        // The samples strictly inside (center − support, center + support): at most ⌈2·support⌉.
        let taps = min(source, Int((2 * support).rounded(.up)))
        var starts: [Int] = []
        var weights: [Float] = []
        starts.reserveCapacity(destination)
        weights.reserveCapacity(destination * taps)
        for index in 0..<destination {
            let center = (Double(index) + 0.5) * scale - 0.5
            let start = min(max(0, Int((center - support).rounded(.down)) + 1), source - taps)
            let window = (0..<taps).map { max(0, 1 - abs(Double(start + $0) - center) / support) }
            let sum = window.reduce(0, +)
            starts.append(start)
            weights += window.map { Float(sum > 0 ? $0 / sum : 1 / Double(taps)) }
        }
        self.taps = taps
        self.starts = starts
        self.weights = weights
    }
}
