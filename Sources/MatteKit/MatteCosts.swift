import Synchronization

/// What a matte costs per frame on average, in its three steps (``MatteTrack``): the frame
/// reduced and converted for the network, the network's run, and the matte steadied and brought
/// to full size by the guided filter. For `bench`, to set the matte's cost against the filters'.
public struct MatteCosts: Sendable {
    public let frames: Int
    public let prepare: Duration
    public let network: Duration
    public let refine: Duration

    /// The costs of the frames made since `earlier` (an average of this same engine's, taken
    /// before): the average over the frames after those; nil if none was made since.
    public func since(_ earlier: MatteCosts?) -> MatteCosts? {
        guard let earlier else { return self }
        let count = frames - earlier.frames
        guard count > 0 else { return nil }
        func mean(_ now: Duration, _ before: Duration) -> Duration { (now * frames - before * earlier.frames) / count }
        return MatteCosts(frames: count, prepare: mean(prepare, earlier.prepare), network: mean(network, earlier.network),
                          refine: mean(refine, earlier.refine))
    }

    /// Lock-free running totals (any thread records).
    final class Counters: Sendable {
        private let frames = Atomic<Int>(0)
        private let prepare = Atomic<Int>(0)
        private let network = Atomic<Int>(0)
        private let refine = Atomic<Int>(0)

        func record(prepare: Duration, network: Duration, refine: Duration) {
            frames.add(1, ordering: .relaxed)
            self.prepare.add(Self.nanoseconds(prepare), ordering: .relaxed)
            self.network.add(Self.nanoseconds(network), ordering: .relaxed)
            self.refine.add(Self.nanoseconds(refine), ordering: .relaxed)
        }

        var average: MatteCosts? {
            let count = frames.load(ordering: .relaxed)
            guard count > 0 else { return nil }
            func mean(_ total: borrowing Atomic<Int>) -> Duration { .nanoseconds(total.load(ordering: .relaxed) / count) }
            return MatteCosts(frames: count, prepare: mean(prepare), network: mean(network), refine: mean(refine))
        }

        private static func nanoseconds(_ duration: Duration) -> Int {
            Int(duration.components.seconds) * 1_000_000_000 + Int(duration.components.attoseconds / 1_000_000_000)
        }
    }
}
