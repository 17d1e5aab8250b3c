import Synchronization

/// Recycles frames of one size so that the steady state allocates nothing per frame.
///
/// `take()` hands out an idle frame or makes a new one; `recycle(_:)` returns a frame when its
/// owner is done. At most `capacity` idle frames are kept; extras are freed.
public final class FramePool: Sendable {
    public let width: Int
    public let height: Int
    public let capacity: Int
    private let idle = Mutex<[Frame]>([])
    private let created = Atomic<Int>(0)

    public init(width: Int, height: Int, capacity: Int = 4) {
        self.width = width
        self.height = height
        self.capacity = capacity
        idle.withLock { $0.reserveCapacity(capacity) }
    }

    /// An idle frame (contents undefined) or, when none is idle, a new one.
    public func take() -> Frame {
        if let frame = idle.withLock({ $0.popLast() }) { return frame }
        created.add(1, ordering: .relaxed)
        return Frame(width: width, height: height)
    }

    /// Returns `frame` to the pool; a frame of another size is simply released.
    public func recycle(_ frame: Frame) {
        guard frame.width == width, frame.height == height else { return }
        idle.withLock { frames in
            assert(!frames.contains { $0 === frame }, "a frame was recycled twice")
            if frames.count < capacity { frames.append(frame) }
        }
    }

    /// How many frames the pool has allocated so far (for tests and metrics).
    public var framesCreated: Int { created.load(ordering: .relaxed) }
}
