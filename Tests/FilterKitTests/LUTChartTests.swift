@testable import FilterKit
import Testing

/// The reference picture of LUT thumbnails: graded by the identity it is itself, graded by a LUT
/// that inverts it is its negative, and it spans what a grade is judged on.
@Suite struct LUTChartTests {
    /// A 2³ LUT mapping every colour to 1 − itself.
    static let invert = CubeLUT(size: 2, values: CubeLUT.identity(size: 2).values.map { 1 - $0 })

    @Test func theIdentityGivesTheChartAndAnInvertingLUTItsNegative() {
        let chart = LUTChart.frame(graded: nil)
        #expect(chart.width == 192 && chart.height == 112)
        let identity = LUTChart.frame(graded: .identity(size: 17))
        let worstIdentity = zip(identity.samples, chart.samples).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(worstIdentity <= 1, "identity: worst \(worstIdentity)")
        let inverted = LUTChart.frame(graded: Self.invert)
        // RGB → 255 − RGB is Y → 255 − Y and Cb, Cr → 256 − Cb, Cr (their coefficients sum to 0).
        let expected = chart.planes.enumerated().flatMap { index, plane in plane.samples.map { (index == 0 ? 255 : 256) - Int($0) } }
        let worst = zip(inverted.samples, expected).map { abs(Int($0) - $1) }.max() ?? 0
        #expect(worst <= 1, "inverted: worst \(worst)")
        let moved = zip(inverted.samples, chart.samples).filter { abs(Int($0) - Int($1)) > 32 }.count
        #expect(moved > chart.samples.count / 2, "inverting moves most samples far: \(moved)")
    }

    @Test func itSpansTheLightsTheHuesAndHoldsTheSkinTones() {
        let chart = LUTChart.frame(graded: nil)
        let luma = chart.y.samples
        #expect((luma.min() ?? 255) <= 40 && (luma.max() ?? 0) >= 230, "dark to light")
        // Every hue: Cb and Cr of the sweep's middle row reach both sides of grey.
        let middle = LUTChart.sweepRows / 4
        let cb = Array(UnsafeBufferPointer(start: chart.u.row(middle), count: chart.u.width))
        let cr = Array(UnsafeBufferPointer(start: chart.v.row(middle), count: chart.v.width))
        #expect(cb.min()! < 90 && cb.max()! > 166 && cr.min()! < 90 && cr.max()! > 166)
        // The grey ramp carries no colour; the light-skin patch is warm (Cr above grey, Cb below).
        let rampRow = (LUTChart.sweepRows + LUTChart.rampRows / 2) / 2
        #expect((0..<chart.u.width).allSatisfy { abs(Int(chart.u.row(rampRow)[$0]) - 128) <= 1 && abs(Int(chart.v.row(rampRow)[$0]) - 128) <= 1 })
        let skin = (x: LUTChart.width / LUTChart.patches.count * 3 / 2 / 2, y: (LUTChart.height - 8) / 2)
        #expect(chart.v.row(skin.y)[skin.x] > 138 && chart.u.row(skin.y)[skin.x] < 124)
    }
}
