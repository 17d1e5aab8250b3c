/// Steadies the network's mattes over time, at the network's size: a still person's matte must
/// not shimmer (the network answers each frame's noise a little differently), and a moving one
/// must leave no ghost.
///
/// Per pixel the kept matte moves toward the new one by a weight that grows with how much changed
/// there: `w = min(1, floor + mattePull·|new − kept| + picturePull·|Y − Y′|)` (Y, Y′ the reduced luma
/// of this frame and the last, 0…1). Where nothing moved, `w` is near ``floor`` and the noise is
/// averaged over a few frames; where the person moved, the picture and the matte both changed
/// much and `w` is 1: the new matte is taken as it is. The kept matte starts over — the new one
/// taken whole — at the first frame, at a `restart` (a seek) and at a scene cut (a mean luma
/// change over ``cut``).
///
/// Deterministic; buffers allocated once (for the network's size). One thread at a time.
final class MatteSteadier {
    /// The weight of the new matte where nothing changed: noise is averaged over ~1/floor frames.
    static let floor: Float = 0.25
    /// A matte change of 0.75 takes the new matte whole.
    static let mattePull: Float = 1
    /// A luma change of 0.1 (25 of 255) takes the new matte whole.
    static let picturePull: Float = 8
    /// The mean luma change (0…1) taken as a scene cut.
    static let cut: Float = 0.15

    let count: Int
    private let kept: UnsafeMutableBufferPointer<Float>
    private let luma: UnsafeMutableBufferPointer<Float>
    private var hasHistory = false

    init(count: Int) {
        self.count = count
        kept = .allocate(capacity: count)
        luma = .allocate(capacity: count)
    }

    deinit {
        kept.deallocate()
        luma.deallocate()
    }

    /// The steadied matte (`count` floats, valid until the next call) after `fresh`, the
    /// network's matte of the picture whose reduced luma (0…1) is `guide`.
    func steady(_ fresh: UnsafePointer<Float>, guide: UnsafePointer<Float>, restart: Bool) -> UnsafePointer<Float> {
        let kept = kept.baseAddress!, old = luma.baseAddress!
        var continues = hasHistory && !restart
        if continues {
            var total: Float = 0
            for i in 0..<count { total += abs(guide[i] - old[i]) }
            continues = total / Float(count) <= Self.cut
        }
        if continues {
            for i in 0..<count {
                let change = fresh[i] - kept[i]
                let weight = min(1, Self.floor + Self.mattePull * abs(change) + Self.picturePull * abs(guide[i] - old[i]))
                kept[i] += weight * change
            }
        } else {
            kept.update(from: fresh, count: count)
        }
        old.update(from: guide, count: count)
        hasHistory = true
        return UnsafePointer(kept)
    }
}
