import Testing
import FilterKit

@Suite("FramePool")
struct FramePoolTests {
    @Test("New frames have the pool's size")
    func takeMakesFramesOfThePoolSize() {
        let pool = FramePool(width: 17, height: 11)
        let frame = pool.take()
        #expect(frame.width == 17 && frame.height == 11)
        #expect(pool.framesCreated == 1)
    }

    @Test("Recycled frames are handed out again: the same objects")
    func recyclingReturnsTheSameFrames() {
        let pool = FramePool(width: 8, height: 8, capacity: 3)
        let first = [pool.take(), pool.take(), pool.take()]
        #expect(pool.framesCreated == 3)
        for frame in first { pool.recycle(frame) }
        let second = [pool.take(), pool.take(), pool.take()]
        #expect(pool.framesCreated == 3)
        let firstIDs = Set(first.map(ObjectIdentifier.init))
        let secondIDs = Set(second.map(ObjectIdentifier.init))
        #expect(firstIDs == secondIDs)
    }

    @Test("Steady state allocates nothing: framesCreated stops growing")
    func steadyStateAllocatesNothing() {
        let pool = FramePool(width: 16, height: 9, capacity: 4)
        // A pipeline with three frames in flight at a time.
        var inFlight: [Frame] = []
        for _ in 0..<3 { inFlight.append(pool.take()) }
        let warmedUp = pool.framesCreated
        for _ in 0..<200 {
            pool.recycle(inFlight.removeFirst())
            inFlight.append(pool.take())
        }
        #expect(warmedUp == 3)
        #expect(pool.framesCreated == warmedUp)
    }

    @Test("At most `capacity` idle frames are kept", arguments: [0, 1, 4])
    func capacityBound(capacity: Int) {
        let pool = FramePool(width: 8, height: 8, capacity: capacity)
        let taken = (0..<(capacity + 3)).map { _ in pool.take() }
        #expect(pool.framesCreated == capacity + 3)
        for frame in taken { pool.recycle(frame) }
        // Only `capacity` of them were kept: taking them all again makes 3 new frames.
        let again = (0..<(capacity + 3)).map { _ in pool.take() }
        #expect(pool.framesCreated == 2 * (capacity + 3) - capacity)
        let kept = Set(taken.map(ObjectIdentifier.init)).intersection(again.map(ObjectIdentifier.init))
        #expect(kept.count == capacity)
    }

    @Test("A frame of another size is not kept", arguments: [Size(9, 8), Size(8, 9), Size(16, 16)])
    func foreignSizeIsNotKept(size: Size) {
        let pool = FramePool(width: 8, height: 8)
        let foreign = Frame(width: size.width, height: size.height)
        pool.recycle(foreign)
        let taken = pool.take()
        #expect(taken !== foreign)
        #expect(taken.width == 8 && taken.height == 8)
        #expect(pool.framesCreated == 1)
    }
}
