import FilterKit
import Foundation

/// The style network beside the picture, for one `style` link and the links that take over from it
/// (``StyleFilter/inherit(from:)``: a slider moved). A worker thread of its own, at a lower
/// priority than the frame path (``StyleWorkers/niceness``), paints the newest frame submitted — never a queue of
/// old ones: a frame submitted while it paints replaces the one waiting — and publishes each
/// ``Stylization``; the frame path composes every frame from the newest one and the frame itself
/// (``StyleScratch/finish(_:styled:madeFrom:strength:detail:)``), so the picture moves at the
/// source's rate and the style refreshes as fast as the network can.
///
/// Nothing waits for the network but ``wait(for:)``: a link's first frame (nothing to compose
/// from yet), the first of a new scene and a picture rendered again — each at most
/// ``Options/longestWait`` (a network compiled for a new size on a busy machine took tens of
/// seconds, and the channel showed nothing and could not be stopped meanwhile) — and, in
/// ``Options/synchronous`` mode, every frame for as long as it takes.
///
/// Threads: `submit`, `newest`, `wait` from the frame paths of the links sharing it; the worker
/// runs the network through ``StyleEngine/paint(_:style:stabilizer:restart:painting:scratch:into:)``. The
/// worker ends when the refresher is released, after the run in progress, or at the engine's stop
/// (``StyleEngine/stop(within:)``, which waits for it); a refresher made after the stop paints
/// nothing (its frames pass unchanged).
final class StyleRefresher: Sendable {
    /// How the network runs beside the picture.
    struct Options: Sendable {
        /// Every frame waits for its own stylization: the per-frame style, the same frames in giving
        /// the same pictures out whatever the network's speed (tests; the reference composed frames
        /// are measured against).
        var synchronous = false
        /// The longest a frame waits for its own stylization outside synchronous mode: then it
        /// goes on as it is (the style follows with a lag, the picture never stalls).
        var longestWait = Duration.seconds(10)
        /// Called on the worker before each run: a test holds the network there to stall it.
        var beforeRun: (@Sendable () -> Void)?

        init(synchronous: Bool = false, longestWait: Duration = .seconds(10), beforeRun: (@Sendable () -> Void)? = nil) {
            self.synchronous = synchronous
            self.longestWait = longestWait
            self.beforeRun = beforeRun
        }
    }

    let options: Options
    private let mailbox = StyleMailbox()

    /// Starts the worker, painting through `engine`.
    init(engine: StyleEngine, options: Options) {
        self.options = options
        let started = engine.workers.start("style-refresh", closing: mailbox) { [mailbox] in
            Self.work(mailbox, engine: engine, options: options)
        }
        if !started { mailbox.close() }
    }

    deinit { mailbox.close() }

    /// Hands the worker a copy of `frame` to paint in `style` (replacing one still waiting); the
    /// submission's number.
    func submit(_ frame: Frame, style: PaintingStyle) -> Int { mailbox.submit(frame, style: style) }

    /// Waits until the submission `number` was painted (or the network failed), at most
    /// ``Options/longestWait`` outside synchronous mode.
    func wait(for number: Int) {
        let seconds = options.longestWait.components
        let deadline = options.synchronous ? nil
            : Date(timeIntervalSinceNow: Double(seconds.seconds) + Double(seconds.attoseconds) / 1e18)
        mailbox.wait(for: number, until: deadline)
    }

    /// Copies the newest stylization into `copy` when it is newer than `copy`'s (remade at a new
    /// network size); nil while there is none.
    func newest(into copy: inout Stylization?) { mailbox.newest(into: &copy) }

    /// Stylizations published so far (for the refresh rate).
    var published: Int { mailbox.published }

    /// Why the network cannot run, once it failed.
    var failure: StyleUnavailable? { mailbox.failure }

    /// The worker: paints what is submitted until the refresher goes or the engine stops.
    private static func work(_ mailbox: StyleMailbox, engine: StyleEngine, options: Options) {
        let stabilizer = StyleStabilizer()
        var frame: Frame?, scratch: StyleScratch?, stylization: Stylization?, network: StyleEngine.NetworkKey?
        defer { engine.finishedPainting(with: network) }
        while let job = mailbox.take(into: &frame) {
            options.beforeRun?()
            switch engine.paint(frame!, style: job.style, stabilizer: stabilizer, restart: job.restart, painting: &network,
                                scratch: &scratch, into: &stylization) {
            case .success:
                stylization!.number = job.number
                mailbox.publish(&stylization)
            case .failure(let error):
                mailbox.fail(error)
                return
            }
        }
    }
}
