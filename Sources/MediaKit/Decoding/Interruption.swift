import CFFmpeg
import Synchronization

/// A way to break a source out of a blocking read from another thread (a stalled network
/// stream would otherwise keep `av_read_frame` — and so shutdown — waiting for ever).
///
/// FFmpeg polls it through `AVFormatContext.interrupt_callback` while it waits for I/O; once
/// `interrupt()` is called, the pending and every later read fails at once.
public final class Interruption: Sendable {
    private let requested = Atomic<Bool>(false)

    public init() {}

    public func interrupt() { requested.store(true, ordering: .releasing) }

    public var isRequested: Bool { requested.load(ordering: .acquiring) }

    /// The callback for `AVFormatContext.interrupt_callback`; `self` must outlive the context.
    var callback: AVIOInterruptCB {
        AVIOInterruptCB(callback: interruptionCallback, opaque: Unmanaged.passUnretained(self).toOpaque())
    }
}

private func interruptionCallback(_ opaque: UnsafeMutableRawPointer?) -> Int32 {
    guard let opaque else { return 0 }
    return Unmanaged<Interruption>.fromOpaque(opaque).takeUnretainedValue().isRequested ? 1 : 0
}
