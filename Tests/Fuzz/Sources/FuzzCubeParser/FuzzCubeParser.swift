import FilterKit

/// The `.cube` parser on any bytes (an uploaded LUT is untrusted): it takes the file or refuses it
/// with a line within the file and a reason. What it takes is a 3D LUT of a size in range, with
/// exactly size³ entries, each finite and within a domain whose minimums lie below its maximums;
/// tetrahedral interpolation of it gives finite colours anywhere, the lattice's corners included.
func fuzzCubeParser(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let lines = bytes.split(omittingEmptySubsequences: false, whereSeparator: { $0 == 10 || $0 == 13 }).count
    do {
        let lut = try CubeParser.parse(bytes)
        precondition(CubeParser.sizes.contains(lut.size), "size \(lut.size) taken")
        precondition(lut.values.count == lut.size * lut.size * lut.size * 3, "entry count")
        for channel in 0..<3 {
            precondition(lut.domainMin[channel] < lut.domainMax[channel], "domain \(lut.domainMin) \(lut.domainMax)")
        }
        for (index, value) in lut.values.enumerated() {
            precondition(value.isFinite && lut.domainMin[index % 3] <= value && value <= lut.domainMax[index % 3],
                         "value \(value) outside the domain")
        }
        for point: Float in [-1, 0, 0.37, 1, 2] {
            let (r, g, b) = lut.tetrahedral(point, 1 - point, point * point)
            precondition(r.isFinite && g.isFinite && b.isFinite, "interpolation not finite")
        }
    } catch {
        precondition(error.line >= 0 && error.line <= lines, "line \(error.line) of \(lines)")
        precondition(!error.reason.isEmpty, "a refusal without a reason")
    }
    return 0
}
