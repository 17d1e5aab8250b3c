import CastProtocol
import FilterKit
import Logging
import MediaKit

extension Application {
    /// The outputs viewers watch: the JPEG stream at the source's size, and an H.264 rendition
    /// of the same size when this FFmpeg has an H.264 encoder (without one, the page gets JPEG
    /// and the log says why).
    static func makeViewerOutputs(_ configuration: ServerConfiguration, info: SourceInfo, session: Session,
                                  counters: ProcessingCounters, wake: @escaping @Sendable () -> Void) throws -> ViewerOutputs {
        let generation: @Sendable () -> Int = { [session] in session.transportGeneration.load(ordering: .relaxed) }
        let jpeg = try ViewerStream(width: info.width, height: info.height, quality: configuration.quality,
                                    maxFPS: configuration.maxFPS, counters: counters, transportGeneration: generation, wake: wake)
        let size = "\(info.height)p"
        let jpegRendition = Rendition(id: "jpeg-\(size)", transport: .jpeg, width: info.width, height: info.height)
        let sourceRate = info.frameRate.map { $0 > 0 ? $0 : 30 } ?? 30
        let rate = min(configuration.maxFPS ?? sourceRate, sourceRate)
        let h264 = Rendition(id: "h264-\(size)", transport: .h264, width: info.width, height: info.height,
                             bitsPerSecond: defaultBitRate(width: info.width, height: info.height, frameRate: rate))
        do throws(MediaError) {
            let stream = try H264Stream(rendition: h264, index: 1, frameRate: rate, maxFPS: configuration.maxFPS,
                                        keyframeInterval: .seconds(2), transportGeneration: generation,
                                        requestFrame: { [session] in session.rerender.request() }, wake: wake)
            return ViewerOutputs(jpeg: jpeg, jpegRendition: jpegRendition, h264: [stream])
        } catch {
            Log.warning("H.264 for the page is off: \(error.description); viewers get JPEG")
            return ViewerOutputs(jpeg: jpeg, jpegRendition: jpegRendition, h264: [])
        }
    }

    /// About 0.11 bit per pixel of every frame, in steps of 100 kbit/s: on camera-like footage
    /// x264 (CRF 23, `superfast`) then matches a quality-80 JPEG stream within 0.01 of SSIM at
    /// a fifth of its bits or less (720p25: 2.5 Mbit/s; 1080p30: 6.8 Mbit/s).
    static func defaultBitRate(width: Int, height: Int, frameRate: Double) -> Int {
        let bits = 0.11 * Double(width * height) * max(frameRate, 1)
        return max(300_000, Int((bits / 100_000).rounded()) * 100_000)
    }
}
