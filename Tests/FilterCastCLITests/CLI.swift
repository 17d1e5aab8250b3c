import Foundation

/// Runs the built `filtercast` executable and captures what it prints.
enum CLI {
    struct Run {
        let status: Int32
        let output: String
        let errors: String
        var errorLines: [Substring] { errors.split(separator: "\n") }
    }

    /// The executable: `$FILTERCAST_BIN`, or `filtercast` beside the test bundle, or in the
    /// package's `.build/debug`.
    static let executable: URL = {
        if let path = ProcessInfo.processInfo.environment["FILTERCAST_BIN"] { return URL(fileURLWithPath: path) }
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let candidates = [
            Bundle.main.bundleURL.appendingPathComponent("filtercast"),
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("filtercast"),
            packageRoot.appendingPathComponent(".build/debug/filtercast"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[2]
    }()

    /// Runs `filtercast arguments…` with the test's environment less its `FILTERCAST_*` variables
    /// (a developer's settings must not change a test, and unknown ones are warned about), plus
    /// `environment`; kills it after `timeout` seconds (a hang is a failure too).
    static func run(_ arguments: [String], environment: [String: String] = [:], timeout: TimeInterval = 60) throws -> Run {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("FILTERCAST_") }
            .merging(environment) { $1 }
        process.standardInput = FileHandle.nullDevice
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outputURL = directory.appendingPathComponent("out"), errorURL = directory.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        let output = try FileHandle(forWritingTo: outputURL), errors = try FileHandle(forWritingTo: errorURL)
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let deadline = Date(timeIntervalSinceNow: timeout)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            throw CLIError(description: "filtercast \(arguments.joined(separator: " ")) hung for \(timeout) s")
        }
        process.waitUntilExit()
        try output.close()
        try errors.close()
        return Run(status: process.terminationStatus,
                   output: try String(contentsOf: outputURL, encoding: .utf8),
                   errors: try String(contentsOf: errorURL, encoding: .utf8))
    }

    struct CLIError: Error, CustomStringConvertible {
        let description: String
    }

    /// A small H.264 clip made with the ffmpeg CLI (1 s, 25 fps, 320x240), once per run.
    static let clip: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cli-clip-\(getpid()).mp4").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = ["-nostdin", "-loglevel", "error", "-y", "-f", "lavfi",
                             "-i", "testsrc2=size=320x240:rate=25:duration=1", "-c:v", "libx264", "-pix_fmt", "yuv420p", path]
        try? process.run()
        process.waitUntilExit()
        atexit { try? FileManager.default.removeItem(atPath: CLI.clip) }
        return path
    }()

    /// A TCP socket listening on a free port of 127.0.0.1 that never accepts (the kernel completes
    /// connections into its backlog): a port in use, or a server that says nothing.
    static func listen() throws -> (descriptor: Int32, port: Int) {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && Glibc.listen(listener, 16) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        guard listening else {
            close(listener)
            throw CLIError(description: "cannot listen on 127.0.0.1: errno \(errno)")
        }
        return (listener, Int(UInt16(bigEndian: address.sin_port)))
    }

    static func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("cli-\(UUID().uuidString)-\(name)").path
    }
}
