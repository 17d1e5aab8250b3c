import CFFmpeg
import Foundation
import Logging
import Synchronization

/// FFmpeg's own messages, through the one logger: its errors at `warn` (a damaged file's decode
/// errors are visible by default), its warnings at `debug`, the rest not at all.
///
/// Three rules keep it to useful lines. While a thread opens an input (``whileOpening(_:)``) its
/// FFmpeg errors go to `debug`: the open's failure is reported once, by the caller, in a line that
/// names the input. After a thread's read was interrupted on purpose (``interruptedOnPurpose()``:
/// a stop, a switch to another source) its errors go to `debug` until it opens the next input: a
/// packet cut short is not damage. And at most `linesPerSecond` lines are written a second; the
/// rest are counted and the count is said with the next line written.
public enum FFmpegLog {
    static let linesPerSecond = 10

    private static let installed: Void = {
        av_log_set_level(AV_LOG_WARNING)
        av_log_set_callback(ffmpegLogCallback)
    }()

    /// Routes FFmpeg's log through ``Log`` (idempotent; every opening of FFmpeg calls it).
    public static func install() { _ = installed }

    /// Runs `body` with this thread's FFmpeg errors lowered to `debug`; afterwards they are
    /// written again (also after an interruption before it).
    static func whileOpening<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        pthread_setspecific(quietKey, UnsafeRawPointer(bitPattern: 1))
        defer { pthread_setspecific(quietKey, nil) }
        return try body()
    }

    /// This thread's read was interrupted on purpose: its FFmpeg errors are lowered to `debug`
    /// until its next ``whileOpening(_:)``. Called on the reading thread (from the interrupt callback).
    static func interruptedOnPurpose() { pthread_setspecific(quietKey, UnsafeRawPointer(bitPattern: 1)) }

    /// Set on a thread while it opens an input, and after its read was interrupted on purpose.
    private static let quietKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// The level an FFmpeg message is logged at, or nil for none; `quiet`: the thread opens an
    /// input or was interrupted on purpose.
    static func level(ffmpeg level: Int32, quiet: Bool) -> LogLevel? {
        if level <= AV_LOG_ERROR { return quiet ? .debug : .warn }
        if level <= AV_LOG_WARNING { return .debug }
        return nil
    }

    /// The level this thread's FFmpeg message at `ffmpegLevel` is logged at, if it is written at all.
    fileprivate static func enabledLevel(_ ffmpegLevel: Int32) -> LogLevel? {
        guard let level = level(ffmpeg: ffmpegLevel, quiet: pthread_getspecific(quietKey) != nil),
              Log.enabled(level) else { return nil }
        return level
    }

    /// Writes the line `format` makes, unless `linesPerSecond` were written this second: checked
    /// first, so that a flood of a damaged stream's errors is not formatted only to be dropped.
    fileprivate static func emit(_ level: LogLevel, format: () -> String) {
        guard let suppressed = limiter.withLock({ $0.admit(at: .now) }) else { return }
        let message = format().trimmingCharacters(in: .whitespacesAndNewlines)
        guard !message.isEmpty else { return }
        if suppressed > 0 {
            Log.write(level, "ffmpeg: \(message)", ["suppressed": .int(suppressed)])
        } else {
            Log.write(level, "ffmpeg: \(message)")
        }
    }

    private static let limiter = Mutex(LineLimiter(perSecond: linesPerSecond))
}

/// At most `perSecond` lines in each one-second window; counts the rest.
struct LineLimiter {
    let perSecond: Int
    private var windowStart: ContinuousClock.Instant?
    private var written = 0
    private var dropped = 0

    init(perSecond: Int) { self.perSecond = perSecond }

    /// nil: drop this line; otherwise write it, saying how many were dropped since the last one.
    mutating func admit(at now: ContinuousClock.Instant) -> Int? {
        if let start = windowStart, start.duration(to: now) < .seconds(1) {
            guard written < perSecond else {
                dropped += 1
                return nil
            }
        } else {
            windowStart = now
            written = 0
        }
        written += 1
        defer { dropped = 0 }
        return dropped
    }
}

private func ffmpegLogCallback(_ context: UnsafeMutableRawPointer?, _ level: Int32, _ format: UnsafePointer<CChar>?,
                               _ arguments: CVaListPointer?) {
    // Most messages are not written (warnings below `debug`, lines past the rate): decide before formatting.
    guard let format, let arguments, let logged = FFmpegLog.enabledLevel(level) else { return }
    var printPrefix: Int32 = 1
    FFmpegLog.emit(logged) {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 1024) { buffer in
            av_log_format_line2(context, level, format, arguments, buffer.baseAddress, Int32(buffer.count), &printPrefix)
            return String(cString: buffer.baseAddress!)
        }
    }
}
