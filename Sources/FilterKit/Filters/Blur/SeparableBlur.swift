/// Box stacks (``BoxStack``) over the three planes of a frame as the passes of a
/// ``PassFilter``: per plane its rows, split into bands of rows, then its columns, split into
/// bands of columns — six passes through one ``BlurScratch``. The stacks depend on the frame
/// height only, and are made again only when it changes.
final class SeparableBlur {
    private let stacksForFrame: (Frame) -> (luma: BoxStack, chroma: BoxStack)
    private var stacks = (luma: BoxStack(), chroma: BoxStack())
    private var stacksHeight = 0
    private let scratch = BlurScratch()

    /// `stacks` gives the luma and the chroma stack of a blur of `radius` (in pixels of a
    /// 1080-line frame) for a frame (of its height).
    init(radius: Double, stacks: @escaping (_ radius: Double, Frame) -> (luma: BoxStack, chroma: BoxStack)) {
        stacksForFrame = { stacks(radius, $0) }
    }

    func preparePasses(for frame: Frame, parts: Int) -> Int {
        if stacksHeight != frame.height {
            stacks = stacksForFrame(frame)
            stacksHeight = frame.height
        }
        guard !stacks.luma.isIdentity || !stacks.chroma.isIdentity else { return 0 }
        scratch.prepare(width: frame.width, height: frame.height, parts: parts)
        return 6
    }

    func run(pass: Int, part: Int, of parts: Int, on frame: Frame) {
        let plane = frame.plane(pass / 2), stack = pass < 2 ? stacks.luma : stacks.chroma
        if pass % 2 == 0 {
            scratch.blurRows(plane, with: stack, rows: Partition.items(part, of: parts, count: plane.height), part: part)
        } else {
            scratch.blurColumns(plane, with: stack, columns: Partition.columns(part, of: parts, width: plane.width))
        }
    }
}
