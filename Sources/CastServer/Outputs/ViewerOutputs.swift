import CastProtocol

/// The outputs `/ws` viewers are given frames from, and the offer `hello` makes of them: the
/// JPEG stream (also MJPEG readers' and snapshots'), then each H.264 rendition.
struct ViewerOutputs: Sendable {
    let jpeg: ViewerStream
    /// By the rendition's index in ``offer``.
    let h264: [Int: H264Stream]
    /// `hello.renditions`: the JPEG rendition first, then the H.264 ones.
    let offer: [Rendition]

    init(jpeg: ViewerStream, jpegRendition: Rendition, h264: [H264Stream]) {
        self.jpeg = jpeg
        offer = [jpegRendition] + h264.map(\.rendition)
        self.h264 = Dictionary(uniqueKeysWithValues: h264.enumerated().map { ($0.offset + 1, $0.element) })
    }

    /// Every output, for the processing loop.
    var all: [any FrameOutput] { [jpeg] + h264.keys.sorted().map { h264[$0]! } }

    /// The newest JPEG and where each rendition's log stands, now.
    var supply: FrameSupply {
        FrameSupply(jpeg: jpeg.broadcaster.latestSequence ?? 0, units: h264.mapValues(\.log.position), now: .now)
    }

    /// Frames encoded per second over the last second, by whichever output encodes most.
    var fps: Double { jpeg.fps }
}
