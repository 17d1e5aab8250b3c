import FilterKit
import StyleKit

/// One thread's matte maker: its infer requests, and a ``MatteTrack`` per frame size it has seen
/// lately (the program's, a look thumbnail's, a snapshot's), so that a frame of another size now
/// and then does not start the program's steadying over.
///
/// It makes a frame's matte once: every link of every chain the thread runs that asks for the
/// matte of the same frame (``MatteTrack/FrameKey``) is given the one made first. As each channel
/// runs all its chains — program, preview, fade, thumbnails — on its one processing thread, that
/// is once per frame per channel; a thread that never asks makes none.
///
/// Not thread-safe: ``MatteEngine`` gives each thread its own.
final class MatteStage {
    /// The sizes kept at once.
    static let trackLimit = 3

    private let engine: MatteEngine
    private var networks: [MatteModel: MatteNetwork] = [:]
    /// Most recently used first.
    private var tracks: [MatteTrack] = []
    private let clock = ContinuousClock()

    init(engine: MatteEngine) {
        self.engine = engine
    }

    /// `frame`'s matte: the one made for it before, or made now (then timed into the engine's
    /// costs). Why not, if the network cannot run.
    func matte(of frame: Frame) -> Result<Matte, StyleUnavailable> {
        let track = self.track(width: frame.width, height: frame.height)
        let key = MatteTrack.FrameKey(time: frame.time, sequence: frame.sequence, isDiscontinuity: frame.isDiscontinuity)
        if track.made == key { return .success(track.matte) }
        let network: MatteNetwork
        do throws(StyleUnavailable) {
            network = try self.network(track.model)
        } catch {
            return .failure(error)
        }
        let start = clock.now
        track.prepare(frame, input: network.input.baseAddress!)
        let prepared = clock.now
        let output = network.run()
        let ran = clock.now
        switch output {
        case .success(let matte): track.refine(matte, of: frame)
        case .failure(let error): return .failure(error)
        }
        engine.record(prepare: prepared - start, network: ran - prepared, refine: clock.now - ran)
        return .success(track.matte)
    }

    /// The track of `width × height`, made (and the least recently used one dropped) if need be.
    private func track(width: Int, height: Int) -> MatteTrack {
        if let index = tracks.firstIndex(where: { $0.width == width && $0.height == height }) {
            if index > 0 { tracks.swapAt(0, index) }
            return tracks[0]
        }
        let track = MatteTrack(width: width, height: height)
        if tracks.count == Self.trackLimit { tracks.removeLast() }
        tracks.insert(track, at: 0)
        return track
    }

    /// This thread's request of `model`, made at its first use.
    private func network(_ model: MatteModel) throws(StyleUnavailable) -> MatteNetwork {
        if let network = networks[model] { return network }
        let network = try MatteNetwork(try engine.compiled(model))
        networks[model] = network
        return network
    }
}
