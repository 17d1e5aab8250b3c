import CFFmpeg
import Logging
@testable import MediaKit
import Testing

/// FFmpeg's messages through the one logger: which levels are written, and the rate limit.
@Suite struct FFmpegLogTests {
    @Test func errorsAreWarningsWarningsAreDebugAndTheRestIsDropped() {
        #expect(FFmpegLog.level(ffmpeg: AV_LOG_FATAL, quiet: false) == .warn)
        #expect(FFmpegLog.level(ffmpeg: AV_LOG_ERROR, quiet: false) == .warn)
        #expect(FFmpegLog.level(ffmpeg: AV_LOG_WARNING, quiet: false) == .debug)
        #expect(FFmpegLog.level(ffmpeg: AV_LOG_INFO, quiet: false) == nil)
        #expect(FFmpegLog.level(ffmpeg: AV_LOG_DEBUG, quiet: false) == nil)
        // While opening (the caller reports a failure once) or after an interruption on purpose,
        // FFmpeg's own errors are detail.
        #expect(FFmpegLog.level(ffmpeg: AV_LOG_ERROR, quiet: true) == .debug)
    }

    @Test func atMostTenLinesASecondAndTheRestAreCounted() {
        var limiter = LineLimiter(perSecond: 10)
        let start = ContinuousClock.now
        let first = (0..<25).map { limiter.admit(at: start + .milliseconds($0)) }
        #expect(first.prefix(10).allSatisfy { $0 == 0 })
        #expect(first.dropFirst(10).allSatisfy { $0 == nil })
        // The next window's first line says how many were dropped, once.
        #expect(limiter.admit(at: start + .milliseconds(1001)) == 15)
        #expect(limiter.admit(at: start + .milliseconds(1002)) == 0)
    }
}
