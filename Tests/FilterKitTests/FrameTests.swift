import Testing
import FilterKit

@Suite("Frame")
struct FrameTests {
    @Test("Chroma planes are ceil(width/2) x ceil(height/2)", arguments: Size.testSizes + [Size(642, 362), Size(1, 2)])
    func planeGeometry(size: Size) {
        let frame = Frame(width: size.width, height: size.height)
        #expect(frame.width == size.width && frame.height == size.height)
        #expect(frame.y.width == size.width && frame.y.height == size.height)
        for chroma in [frame.u, frame.v] {
            #expect(chroma.width == (size.width + 1) / 2)
            #expect(chroma.height == (size.height + 1) / 2)
        }
        #expect(frame.planes.map(\.base) == [frame.y.base, frame.u.base, frame.v.base])
    }

    @Test("Rows are 64-byte aligned and strides cover the width", arguments: Size.testSizes + [Size(65, 3), Size(128, 2)])
    func rowAlignment(size: Size) {
        let frame = Frame(width: size.width, height: size.height)
        for plane in frame.planes {
            #expect(plane.stride >= plane.width)
            #expect(plane.stride % 64 == 0)
            #expect(plane.stride < plane.width + 64)
            for row in 0..<plane.height {
                #expect(UInt(bitPattern: plane.row(row)) % 64 == 0)
            }
        }
    }

    @Test("Planes do not overlap", arguments: Size.testSizes)
    func planesAreDisjoint(size: Size) {
        let frame = Frame.filled(width: size.width, height: size.height, y: 1, u: 2, v: 3)
        #expect(frame.y.samples.allSatisfy { $0 == 1 })
        #expect(frame.u.samples.allSatisfy { $0 == 2 })
        #expect(frame.v.samples.allSatisfy { $0 == 3 })
    }

    @Test("copy(from:) copies every sample and the timing")
    func copyFrom() {
        let source = Frame.random(width: 17, height: 11, seed: 1)
        source.time = 12.5
        source.sequence = 42
        let destination = Frame.filled(width: 17, height: 11, y: 0, u: 0, v: 0)
        destination.copy(from: source)
        #expect(destination.samples == source.samples)
        #expect(destination.time == 12.5)
        #expect(destination.sequence == 42)
        // A deep copy: changing the source afterwards leaves the destination alone.
        source.y[0, 0] = source.y[0, 0] &+ 1
        #expect(destination.y[0, 0] != source.y[0, 0])
    }

    @Test("Plane.fill touches only the visible samples of its own plane")
    func fillLeavesOtherPlanesAlone() {
        let frame = Frame.filled(width: 7, height: 5, y: 10, u: 20, v: 30)
        frame.u.fill(99)
        #expect(frame.y.samples.allSatisfy { $0 == 10 })
        #expect(frame.u.samples.allSatisfy { $0 == 99 })
        #expect(frame.v.samples.allSatisfy { $0 == 30 })
    }

    @Test("Random test frames are deterministic per seed")
    func randomFramesAreDeterministic() {
        let a = Frame.random(width: 17, height: 11, seed: 7)
        let b = Frame.random(width: 17, height: 11, seed: 7)
        let c = Frame.random(width: 17, height: 11, seed: 8)
        #expect(a.samples == b.samples)
        #expect(a.samples != c.samples)
        // SplitMix64's published first output for seed 0.
        var generator = SplitMix64(seed: 0)
        #expect(generator.next() == 0xE220_A839_7B1D_CDAF)
    }
}
