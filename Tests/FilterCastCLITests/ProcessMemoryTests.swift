@testable import filtercast
import Testing

/// `serve`'s large blocks keep mappings of their own, unmapped when freed, however large a block
/// was freed before (issue 37.6: frames freed stayed resident in the arenas).
@Suite struct ProcessMemoryTests {
    @Test func aFrameIsMappedOnItsOwnEvenAfterALargerBlockWasFreed() {
        ProcessMemory.returnLargeBlocks()
        // glibc's moving threshold would rise to 8 MiB here and put the next frame in an arena.
        UnsafeMutableRawPointer.allocate(byteCount: 8 << 20, alignment: 16).deallocate()
        let frame = UnsafeMutableRawPointer.allocate(byteCount: 1280 * 720 * 3 / 2, alignment: 16)
        defer { frame.deallocate() }
        #expect(ProcessMemory.isMapped(frame), "a 720p frame")
        let small = UnsafeMutableRawPointer.allocate(byteCount: 100_000, alignment: 16)
        defer { small.deallocate() }
        #expect(!ProcessMemory.isMapped(small), "a block under the threshold stays in an arena")
    }
}
