/// One encoded picture (an access unit, a JPEG) copied out of a producer's buffer, its
/// consumer's until recycled (``UnitQueue``).
final class CopiedUnit: @unchecked Sendable {
    /// Grown as needed, kept from unit to unit.
    private var storage = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
    private var count = 0
    var isKeyframe = false
    /// A time in its user's unit: for a writer, when it came (ms since the feed started); for a
    /// shared camera, the capture time (µs on the sender's clock).
    var time: Int64 = 0
    /// When it was queued (``UnitQueue/offer(_:keyframe:time:)``).
    var queuedAt = ContinuousClock.now

    deinit { storage.deallocate() }

    /// The unit's bytes, valid until it is filled again.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: storage[..<count]) }

    func fill(from unit: UnsafeRawBufferPointer) {
        // Room for the padding FFmpeg's readers may look into past the end.
        if unit.count + 64 > storage.count {
            storage.deallocate()
            storage = .allocate(byteCount: unit.count * 2 + 64, alignment: 16)
        }
        storage.copyMemory(from: unit)
        count = unit.count
    }
}
