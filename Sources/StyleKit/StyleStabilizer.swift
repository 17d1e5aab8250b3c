/// Keeps a `style` link's picture steady where its source is: the network paints each frame on its
/// own, so grain, or motion elsewhere in the picture (instance normalisation's statistics are the
/// whole frame's), changes its strokes from frame to frame where the source did not change — a
/// flicker the source's motion does not explain (issue 27 item 4).
///
/// Per pixel at the network's size, the styled picture is blended with the previous steadied one
/// by a weight that falls with how much the source changed there: `hold · max(0, 1 − d / reach)`,
/// `d` the sum of the absolute changes of the reduced Y, U and V (0…255). Where the source moved,
/// the new strokes are taken as they are (no trail); where it stood still, the strokes settle over
/// a few frames. The history starts over — the frame taken as painted — at the first frame, at a
/// `restart` (a seek: ``FilterKit/Frame/isDiscontinuity``), at a change of size, and at a scene cut
/// (a mean `d` over ``cut``), so nothing of another scene shows through.
///
/// Deterministic: the same frames in the same order give the same pictures, and a frame after a
/// start over is the network's picture itself (so is the same frame twice from the start). The history (6 floats a pixel) is allocated at the first frame
/// of a size, never per frame.
///
/// Not thread-safe: one thread at a time — the link's, which lends it to ``StyleEngine`` for the
/// length of a call (under the engine's lock) — which is why it may be `@unchecked Sendable`.
final class StyleStabilizer: @unchecked Sendable {
    /// The weight of the previous picture where the source did not change at all.
    static let hold: Float = 0.8
    /// The change of a pixel's Y + U + V (0…255 each) from which the new strokes are taken alone.
    /// Chosen on the natural clip (bench/style_flicker.py, style-20, the most restless of the
    /// eight): 12 left a ratio of 1.6, 24 ~1.35, 40 ~1.1 but trails a pan by two frames.
    static let reach: Float = 24
    /// The mean change of Y + U + V over the picture taken as a scene cut.
    static let cut: Float = 40

    /// Pixels at the network's size; 0 before the first frame.
    private(set) var count = 0
    /// The previous reduced source's Y, U and V, each `count` floats.
    private var source = UnsafeMutableBufferPointer<Float>(start: nil, count: 0)
    /// The previous steadied picture, as the network lays out its output (3 × `count` floats).
    private var picture = UnsafeMutableBufferPointer<Float>(start: nil, count: 0)
    private var hasHistory = false

    deinit {
        source.deallocate()
        picture.deallocate()
    }

    /// Steadies `styled` (the network's RGB of `count` pixels, laid out as `layout`), painted from
    /// the reduced source planes `y`, `u` and `v` (`count` floats each, 0…255), and returns the
    /// steadied picture, laid out as `styled`, valid until the next call.
    func steady(_ styled: UnsafePointer<Float>, layout: StyleModel.Layout, count: Int,
                y: UnsafePointer<Float>, u: UnsafePointer<Float>, v: UnsafePointer<Float>,
                restart: Bool) -> UnsafePointer<Float> {
        if count != self.count { resize(count) }
        let old = source.baseAddress!, out = picture.baseAddress!
        var continues = hasHistory && !restart
        if continues {
            // A scene cut is judged before anything is blended: a mean over the whole picture.
            continues = Self.meanChange(y: y, u: u, v: v, from: UnsafePointer(old), count: count) <= Self.cut
        }
        if continues {
            blend(styled, layout: layout, y: y, u: u, v: v)
        } else {
            out.update(from: styled, count: 3 &* count)
        }
        old.update(from: y, count: count)
        (old + count).update(from: u, count: count)
        (old + 2 &* count).update(from: v, count: count)
        hasHistory = true
        return UnsafePointer(out)
    }

    /// The mean over `count` pixels of the sum of the absolute changes of Y, U and V (0…255) from
    /// `old` (its Y, U and V planes one after another) to `y`, `u` and `v`: over ``cut``, a scene cut.
    static func meanChange(y: UnsafePointer<Float>, u: UnsafePointer<Float>, v: UnsafePointer<Float>,
                           from old: UnsafePointer<Float>, count: Int) -> Float {
        var total: Float = 0
        for i in 0..<count { total += abs(y[i] - old[i]) + abs(u[i] - old[count &+ i]) + abs(v[i] - old[2 &* count &+ i]) }
        return total / Float(count)
    }

    /// `picture = w · picture + (1 − w) · styled`, pixel by pixel, w from the source's change.
    private func blend(_ styled: UnsafePointer<Float>, layout: StyleModel.Layout,
                       y: UnsafePointer<Float>, u: UnsafePointer<Float>, v: UnsafePointer<Float>) {
        let old = source.baseAddress!, out = picture.baseAddress!
        let (step, channel) = layout == .planar ? (1, count) : (3, 1)
        let scale = Self.hold / Self.reach
        for i in 0..<count {
            let change = abs(y[i] - old[i]) + abs(u[i] - old[count &+ i]) + abs(v[i] - old[2 &* count &+ i])
            let weight = max(0, Self.hold - scale * change)
            let at = i &* step
            for c in 0..<3 {
                let k = at &+ c &* channel
                out[k] = styled[k] + weight * (out[k] - styled[k])
            }
        }
    }

    private func resize(_ count: Int) {
        source.deallocate()
        picture.deallocate()
        source = .allocate(capacity: 3 * count)
        picture = .allocate(capacity: 3 * count)
        self.count = count
        hasHistory = false
    }
}
