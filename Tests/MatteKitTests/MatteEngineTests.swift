import FilterKit
import Foundation
@testable import MatteKit
import StyleKit
import Testing

@Suite struct MatteEngineTests {
    /// messi5.jpg: the player's shirt, and three patches of far background (crowd, crowd, grass).
    static let person = (x: 0.40...0.50, y: 0.40...0.55)
    static let background = [(x: 0.0...0.15, y: 0.0...0.15), (x: 0.85...1.0, y: 0.0...0.2), (x: 0.0...0.3, y: 0.85...1.0)]

    @Test(arguments: [(1280, 720), (720, 720), (640, 360)])
    func thePersonIsHighAndTheFarBackgroundLow(width: Int, height: Int) throws {
        let frame = try photograph("messi5.jpg", width: width, height: height)
        let matte = try engine.matte(of: frame).get()
        #expect(mean(matte.luma, width: width, height: height, x: Self.person.x, y: Self.person.y) > 230)
        for patch in Self.background {
            #expect(mean(matte.luma, width: width, height: height, x: patch.x, y: patch.y) < 20)
        }
        // The chroma-size matte says the same.
        #expect(mean(matte.chroma, width: matte.chromaWidth, height: matte.chromaHeight, x: Self.person.x, y: Self.person.y) > 230)
    }

    /// A still shot with the camera's noise: fresh noise in every frame, the person standing still.
    /// The matte moves by under 1 % of full scale from frame to frame, and by less than the
    /// network's own mattes do (each frame a discontinuity: nothing steadied).
    @Test func aStillPersonsMatteDoesNotShimmer() throws {
        let steadied = try meanChange(steadied: true), raw = try meanChange(steadied: false)
        #expect(steadied <= 0.01 * 255, "mean frame-to-frame change \(steadied) of 255")
        #expect(steadied < 0.9 * raw, "steadied \(steadied), the network's own \(raw)")
    }

    /// The mean absolute change of the matte between consecutive frames of a still shot with noise.
    private func meanChange(steadied: Bool) throws -> Double {
        let source = try photograph("messi5.jpg", width: 640, height: 360)
        let frame = Frame(width: 640, height: 360)
        let local = try MatteEngine(root: engine.root)
        var previous: [UInt8]?
        var changes: [Double] = []
        for index in 0..<16 {
            frame.copy(from: source)
            frame.sequence = index
            frame.isDiscontinuity = !steadied
            addNoise(to: frame.y, amplitude: 12, seed: index)
            let matte = try local.matte(of: frame).get()
            let current = Array(UnsafeBufferPointer(start: matte.luma, count: 640 * 360))
            if let previous, index >= 4 {
                changes.append(Double(zip(previous, current).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(current.count))
            }
            previous = current
        }
        return changes.reduce(0, +) / Double(changes.count)
    }

    /// The person moves (the picture shifts by 10 % of its width in one frame): the next matte is
    /// the one of the new picture, with no ghost of the old position.
    @Test func motionLeavesNoGhost() throws {
        let still = try photograph("messi5.jpg", width: 640, height: 360)
        let moved = Frame(width: 640, height: 360)
        shift(moved, from: still, by: 64)
        let fresh = try MatteEngine(root: engine.root)
        let expected = Array(UnsafeBufferPointer(start: try fresh.matte(of: moved).get().luma, count: 640 * 360))
        let steady = try MatteEngine(root: engine.root)
        for index in 0..<8 {
            still.sequence = index
            _ = try steady.matte(of: still).get()
        }
        moved.sequence = 8
        let after = Array(UnsafeBufferPointer(start: try steady.matte(of: moved).get().luma, count: 640 * 360))
        let difference = zip(expected, after).map { abs(Int($0) - Int($1)) }
        #expect(Double(difference.reduce(0, +)) / Double(difference.count) < 2)
        #expect(difference.max()! < 64)
    }

    @Test func aFrameSeenAgainIsNotMattedAgain() throws {
        let local = try MatteEngine(root: engine.root)
        let frame = try photograph("messi5.jpg", width: 320, height: 180)
        let copy = Frame(width: 320, height: 180)
        copy.copy(from: frame)
        let chain = [BackgroundBlurFilter(amount: 1, engine: local), MatteFilter(engine: local)] as [any FrameFilter]
        for filter in chain { filter.apply(to: frame) }
        #expect(local.averageCosts?.frames == 1)
        // The preview's chain on the same source frame: the matte made for the program.
        BackgroundReplaceFilter(background: "white", engine: local).apply(to: copy)
        #expect(local.averageCosts?.frames == 1)
        copy.sequence = 1
        MatteFilter(engine: local).apply(to: copy)
        #expect(local.averageCosts?.frames == 2)
    }
}

/// Moves `frame`'s picture `by` luma pixels right of `source`'s (the left edge repeated).
func shift(_ frame: Frame, from source: Frame, by pixels: Int) {
    for index in 0..<3 {
        let target = frame.plane(index), from = source.plane(index), offset = index == 0 ? pixels : pixels / 2
        for row in 0..<target.height {
            for x in 0..<target.width { target.row(row)[x] = from.row(row)[max(0, x - offset)] }
        }
    }
}

/// Adds noise in ±`amplitude` to every sample of `plane` (clamped), different for each `seed`: a
/// fixed hash of the position and the seed, so that the test is deterministic.
func addNoise(to plane: Plane, amplitude: Int, seed: Int) {
    for row in 0..<plane.height {
        for x in 0..<plane.width {
            var hash = UInt32(truncatingIfNeeded: x &* 73_856_093 ^ row &* 19_349_663 ^ seed &* 83_492_791)
            hash = (hash ^ (hash >> 13)) &* 0x5BD1_E995
            hash ^= hash >> 15
            let noise = Int(hash % UInt32(2 * amplitude + 1)) - amplitude
            plane.row(row)[x] = UInt8(min(max(Int(plane.row(row)[x]) + noise, 0), 255))
        }
    }
}
