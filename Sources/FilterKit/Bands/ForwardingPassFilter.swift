/// A ``PassFilter`` whose passes are run by a helper it holds — a ``SeparableBlur``, a
/// ``LumaSharpener``, a ``LumaGlow`` — while the filter only chooses the helper's settings from
/// its own parameters. The filter gives the helper as ``passes``; its `preparePasses` and `run`
/// are the helper's.
public protocol ForwardingPassFilter: PassFilter {
    /// The helper that runs the passes.
    var passes: FilterPasses { get }
}

extension ForwardingPassFilter {
    public func preparePasses(for frame: Frame, parts: Int) -> Int {
        passes.runner.preparePasses(for: frame, parts: parts)
    }

    public func run(pass: Int, part: Int, of parts: Int, on frame: Frame) {
        passes.runner.run(pass: pass, part: part, of: parts, on: frame)
    }
}

/// The helper of a ``ForwardingPassFilter`` (opaque outside FilterKit). Its calls follow the
/// contract of ``PassFilter``'s.
public struct FilterPasses {
    let runner: any PassRunner

    init(_ runner: any PassRunner) {
        self.runner = runner
    }
}

/// What runs the passes of a ``ForwardingPassFilter``: ``PassFilter``'s two calls.
protocol PassRunner: AnyObject {
    func preparePasses(for frame: Frame, parts: Int) -> Int
    func run(pass: Int, part: Int, of parts: Int, on frame: Frame)
}

extension SeparableBlur: PassRunner {}
extension LumaSharpener: PassRunner {}
extension LumaGlow: PassRunner {}
