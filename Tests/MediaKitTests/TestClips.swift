import Foundation
import Synchronization

/// Why a helper could not produce a clip or a reference picture.
struct TestClipError: Error, CustomStringConvertible {
    let description: String
}

/// Generates test clips with the `ffmpeg` CLI, once per test run, into a temporary directory
/// that is removed when the test process exits; and runs `ffmpeg` to make reference pictures.
enum TestClips {
    static let ffmpegPath = "/usr/bin/ffmpeg"

    /// The per-run directory holding the clips.
    static let directory: URL = {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("mediakit-tests-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: TestClips.directory) }
        return url
    }()

    /// A path in the per-run directory (for files a test writes itself).
    static func path(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }

    // MARK: Clips

    /// One clip being made or made: its own lock so that different clips are generated in parallel
    /// while two tests asking for the same clip wait for one generation.
    private final class Entry: @unchecked Sendable {
        let lock = NSLock()
        var path: String?
    }

    private static let entries = Mutex<[String: Entry]>([:])

    /// The path of clip `name` (a file name with its extension), generated on first use by
    /// `ffmpeg -nostdin -loglevel error -y <arguments> <path>`. The same name must always be
    /// given the same arguments.
    static func clip(_ name: String, _ arguments: [String]) throws -> String {
        let entry = entries.withLock { entries in
            if let entry = entries[name] { return entry }
            let entry = Entry()
            entries[name] = entry
            return entry
        }
        entry.lock.lock()
        defer { entry.lock.unlock() }
        if let path = entry.path { return path }
        let output = path(name)
        try ffmpeg(arguments + [output])
        guard let size = try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int, size > 0 else {
            throw TestClipError(description: "ffmpeg made no output for clip \(name)")
        }
        entry.path = output
        return output
    }

    /// `-f lavfi -i <source>=size=WxH:rate=R:duration=D` (testsrc2 by default: every frame differs).
    static func lavfi(width: Int, height: Int, rate: Int, duration: Double, source: String = "testsrc2") -> [String] {
        ["-f", "lavfi", "-i", "\(source)=size=\(width)x\(height):rate=\(rate):duration=\(duration)"]
    }

    // MARK: Running ffmpeg

    /// Runs `ffmpeg -nostdin -hide_banner -loglevel error -y <arguments>` and returns what it
    /// wrote to standard output. Throws with its error output when it fails.
    @discardableResult
    static func ffmpeg(_ arguments: [String]) throws -> [UInt8] {
        guard FileManager.default.isExecutableFile(atPath: ffmpegPath) else {
            throw TestClipError(description: "\(ffmpegPath) is missing: install the ffmpeg package to run the media tests")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpegPath)
        process.arguments = ["-nostdin", "-hide_banner", "-loglevel", "error", "-y"] + arguments
        process.standardInput = FileHandle.nullDevice
        let output = Pipe()
        process.standardOutput = output
        // Error output goes to a file so that a chatty ffmpeg can never block on a full pipe.
        let errorPath = path("stderr-\(UUID().uuidString).txt")
        guard FileManager.default.createFile(atPath: errorPath, contents: nil) else {
            throw TestClipError(description: "cannot create \(errorPath)")
        }
        defer { try? FileManager.default.removeItem(atPath: errorPath) }
        let errorHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
        process.standardError = errorHandle
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try errorHandle.close()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let message = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
            throw TestClipError(description: "ffmpeg \(arguments.joined(separator: " ")) failed "
                + "(status \(process.terminationStatus)): \(message.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
        return [UInt8](data)
    }

    private static let encoderList: String = {
        (try? ffmpeg(["-encoders"])).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }()

    /// Whether the ffmpeg CLI has the encoder `name` (as listed by `ffmpeg -encoders`).
    static func hasEncoder(_ name: String) -> Bool {
        encoderList.split(separator: "\n").contains { line in
            line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first == Substring(name)
        }
    }

    // MARK: Reference pictures

    /// Frame `index` (counted from 0 in decode output order) of `path`, as ffmpeg converts it to
    /// `pixelFormat` (`gray` is full-range luma, `rgb24` packed RGB, `yuvj420p` the frame format),
    /// passing first through `intermediate` when given.
    /// Results are cached for the run (clips do not change once made).
    static func referenceFrame(of path: String, index: Int, pixelFormat: String,
                               intermediate: String? = nil) throws -> [UInt8] {
        let filter = "select=eq(n\\,\(index))" + (intermediate.map { ",format=\($0)" } ?? "")
        let arguments = ["-i", path, "-vf", filter, "-frames:v", "1", "-fps_mode", "passthrough",
                         "-f", "rawvideo", "-pix_fmt", pixelFormat, "-"]
        let key = arguments.joined(separator: "\u{1}")
        if let cached = references.withLock({ $0[key] }) { return cached }
        let bytes = try ffmpeg(arguments)
        guard !bytes.isEmpty else {
            throw TestClipError(description: "ffmpeg found no frame \(index) in \(path)")
        }
        references.withLock { $0[key] = bytes }
        return bytes
    }

    private static let references = Mutex<[String: [UInt8]]>([:])

    /// The picture in `path` (a JPEG, PNG, …) decoded by ffmpeg to packed RGB24.
    static func decodeToRGB(_ path: String) throws -> [UInt8] {
        try ffmpeg(["-i", path, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
    }
}
