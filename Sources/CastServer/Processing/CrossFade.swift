import FilterKit

/// The picture of a fading take: the old chain's picture mixed into the new one's.
enum CrossFade {
    /// Mixes `old` into `frame` (the same size), in place: `frame` keeps `progress` (0…1) of
    /// itself, every plane, in 1/256 steps. Processing thread.
    static func mix(_ old: Frame, into frame: Frame, progress: Double) {
        let weight = Int(min(max(progress, 0), 1) * 256)
        for index in 0..<3 {
            let from = old.plane(index), to = frame.plane(index)
            for row in 0..<to.height {
                let a = from.row(row), b = to.row(row)
                for column in 0..<to.width {
                    let mixed = (Int(a[column]) &* (256 &- weight) &+ Int(b[column]) &* weight &+ 128) &>> 8
                    b[column] = UInt8(truncatingIfNeeded: mixed)
                }
            }
        }
    }
}
