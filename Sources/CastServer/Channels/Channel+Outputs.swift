import CastProtocol
import FilterKit
import Logging
import MediaKit

extension Channel {
    /// The outputs viewers watch: a JPEG stream per JPEG rung of the ladder and an H.264 stream
    /// per H.264 rung, a JPEG stream of each second picture (the preview's, studio mode; the source's, the compare view's) per JPEG rung, when this FFmpeg has an H.264 encoder (without one, the page gets JPEG and
    /// the log says why), and the sound of the packets `audio` is given, when there is a queue.
    static func makeViewerOutputs(_ configuration: ServerConfiguration, info: SourceInfo, session: Session,
                                  counters: ProcessingCounters, audio: AudioPacketQueue?,
                                  wake: @escaping @Sendable () -> Void) throws -> ViewerOutputs {
        let generation: @Sendable () -> Int = { [session] in session.transportGeneration.load(ordering: .relaxed) }
        let sourceRate = info.frameRate.map { $0 > 0 ? $0 : 30 } ?? 30
        let rate = min(configuration.maxFPS ?? sourceRate, sourceRate)
        var ladder = Ladder.standard(height: info.height)
        if let heights = configuration.jpegLadder { ladder.jpeg = heights }
        if let rungs = configuration.h264Ladder { ladder.h264 = rungs }
        let renditions = ladder.renditions(width: info.width, height: info.height, frameRate: rate)
        let sizes = RenditionSizes(width: info.width, height: info.height)
        func scale(_ rendition: Rendition, cap: Int? = nil) -> RungScale {
            RungScale(start: rendition, startHeight: info.height, cap: cap, frameRate: rate)
        }
        let jpeg = try renditions.filter { $0.transport == .jpeg }.map { rendition in
            try ViewerStream(scale: scale(rendition), sizes: sizes, quality: configuration.quality, maxFPS: configuration.maxFPS,
                             counters: counters, transportGeneration: generation, wake: wake)
        }
        var h264: [H264Stream] = []
        do throws(MediaError) {
            for (rendition, rung) in zip(renditions.filter { $0.transport == .h264 }, ladder.h264) {
                h264.append(try H264Stream(scale: scale(rendition, cap: rung.bitsPerSecond), index: jpeg.count + h264.count,
                                           sizes: sizes, frameRate: rate,
                                           maxFPS: configuration.maxFPS, keyframeInterval: H264Stream.keyframeInterval,
                                           transportGeneration: generation,
                                           requestFrame: { [session] in session.rerender.request() }, wake: wake))
            }
        } catch {
            session.log.warning("H.264 for the page is off: \(error.description); viewers get JPEG")
            h264.forEach { $0.finish() }
            h264 = []
        }
        let second = try Ladder.seconds(of: renditions).map { rendition in
            try ViewerStream(scale: scale(rendition), sizes: sizes, quality: configuration.quality, maxFPS: configuration.maxFPS,
                             counters: counters, transportGeneration: generation, wake: wake)
        }
        return ViewerOutputs(jpeg: jpeg, h264: h264, second: second,
                             audio: audio.map { ViewerAudio(queue: $0, log: session.log, wake: wake) }, sizes: sizes)
    }
}
