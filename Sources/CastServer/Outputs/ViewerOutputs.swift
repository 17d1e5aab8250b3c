import CastProtocol
import Synchronization

/// The outputs `/ws` viewers, MJPEG readers and snapshots are given frames from — a JPEG stream
/// and an H.264 stream per rung of the ``Ladder`` — and the offer `hello` makes of them. Each is
/// named by its rendition's index in ``offer``: the JPEG rungs first (the full-size one at 0,
/// which snapshots and a client that says nothing get), then the H.264 ones, then the second
/// pictures' JPEG ones (the preview's, controllers only; the source's: never chosen by the server).
/// Their sizes follow the source's (``RungScale``, ``sizes``).
package struct ViewerOutputs: Sendable {
    /// The JPEG streams, the second pictures' included.
    package let jpeg: [Int: ViewerStream]
    let h264: [Int: H264Stream]
    /// How many renditions there are.
    private let count: Int
    /// The source's size, and how many times the renditions' sizes changed.
    let sizes: RenditionSizes
    /// The sound for viewers who ask; nil when this FFmpeg cannot encode Opus.
    let audio: ViewerAudio?

    /// `jpeg`, `h264` and `second` (the second pictures'), each largest first; `jpeg` is not empty.
    /// `sizes` is the one they follow.
    init(jpeg: [ViewerStream], h264: [H264Stream], second: [ViewerStream] = [], audio: ViewerAudio? = nil, sizes: RenditionSizes) {
        self.audio = audio
        self.sizes = sizes
        precondition(!jpeg.isEmpty, "a session always offers JPEG")
        count = jpeg.count + h264.count + second.count
        let seconds = second.enumerated().map { ($0.offset + jpeg.count + h264.count, $0.element) }
        self.jpeg = Dictionary(uniqueKeysWithValues: jpeg.enumerated().map { ($0.offset, $0.element) } + seconds)
        self.h264 = Dictionary(uniqueKeysWithValues: h264.enumerated().map { ($0.offset + jpeg.count, $0.element) })
    }

    /// `hello.renditions`: each rendition at its size now.
    var offer: [Rendition] {
        (0..<count).map { jpeg[$0]?.rendition ?? h264[$0]!.rendition }
    }

    /// The full-size JPEG stream: snapshots', and every client's that chose nothing.
    var fullJPEG: ViewerStream { jpeg[0]! }

    /// Every output, in offer order, for the processing loop.
    var all: [any FrameOutput] {
        (0..<count).map { index in jpeg[index].map { $0 as any FrameOutput } ?? h264[index]! }
    }

    /// The newest JPEG of each rung and where each H.264 rung's log stands, now; with
    /// `withEncoders`, where each H.264 rung's encoder stands too (its lock taken: only for held
    /// acks, not for every write).
    func supply(withEncoders: Bool = false) -> FrameSupply {
        let encoders = withEncoders ? h264.mapValues(\.encoderProgress) : [:]  // before the logs: see FrameSupply.encoders
        return FrameSupply(jpeg: jpeg.mapValues { $0.broadcaster.latestSequence ?? 0 }, units: h264.mapValues(\.log.position),
                           audio: audio?.log.position, encoders: encoders, now: .now)
    }

    /// What each rendition made lately (for judging viewers' delivery, four times a second).
    var production: [Int: RungProduction] {
        jpeg.mapValues(\.production).merging(h264.mapValues(\.production)) { first, _ in first }
    }

    /// The JPEG rung nearest to `width` pixels wide (MJPEG readers' `?width=`).
    func jpegRung(nearestWidth width: Int) -> Int {
        let offer = offer
        // Keys in offer order: of two as near, the larger rendition.
        return jpeg.keys.filter { offer[$0].isProgram }.sorted().min { abs(offer[$0].width - width) < abs(offer[$1].width - width) }!
    }

    /// `state.renditions`: each rendition and the clients on it (as the transport counted them).
    var uses: [SessionState.RenditionUse] {
        let offer = offer
        return offer.indices.map { index in
            let audience = jpeg[index]?.audience.load(ordering: .relaxed) ?? h264[index]?.audience.load(ordering: .relaxed) ?? 0
            return SessionState.RenditionUse(id: offer[index].id, viewers: audience)
        }
    }

    /// Frames of the program made per second over the last second, by whichever output makes most.
    var fps: Double { (jpeg.values.filter(\.rendition.isProgram).map(\.fps) + h264.values.map(\.fps)).reduce(0, max) }
}

/// The size of the session's pictures — the source's that plays —, which every rendition's size
/// follows (``RungScale``), and a count of the changes of the renditions' sizes: set on the
/// processing thread, read by the network thread to tell viewers (`renditions`).
final class RenditionSizes: Sendable {
    private let state: Mutex<(source: (width: Int, height: Int), changes: Int)>

    /// For a session whose first source is `width × height`.
    init(width: Int, height: Int) {
        state = Mutex(((width, height), 0))
    }

    /// The source's size now.
    var source: (width: Int, height: Int) { state.withLock { $0.source } }

    /// How many times the renditions' sizes changed.
    var changes: Int { state.withLock { $0.changes } }

    /// Processing thread: the source's frames are `width × height` now.
    func sourceIs(width: Int, height: Int) {
        state.withLock { state in
            guard state.source != (width, height) else { return }
            state.source = (width, height)
            state.changes += 1
        }
    }

    /// A rendition's size changed by itself (a shared H.264 rendition its last sharer left).
    func renditionChanged() { state.withLock { $0.changes += 1 } }
}
