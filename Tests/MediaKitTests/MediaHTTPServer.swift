import Foundation

/// A real HTTP server for one media file: `Tests/EndToEnd/media_http.py` run with Debian's
/// python3, with or without byte ranges, optionally cutting its first response short at a
/// byte (a connection that drops mid-file). It serves until `stop()`.
///
/// Its output goes to a file (see ``ChildProcess``).
final class MediaHTTPServer {
    static let python = "/usr/bin/python3"
    /// The helper script, found from this file's place in the checkout.
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../EndToEnd/media_http.py").standardized.path

    /// Where the file is served.
    private(set) var url = ""
    private var child: ChildProcess?

    init(serving path: String, ranges: Bool, dropAfter: Int? = nil) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.python) else {
            throw TestClipError(description: "\(Self.python) is missing: the HTTP input tests need it")
        }
        let output = TestClips.path("http-server-\(UUID().uuidString).txt")
        let arguments = [Self.python, Self.script, path] + (ranges ? [] : ["--no-ranges"])
            + (dropAfter.map { ["--drop-after", String($0)] } ?? [])
        child = try ChildProcess(arguments, output: output)
        // Its first line is the URL, printed once it listens.
        let deadline = ContinuousClock.now + .seconds(15)
        while ContinuousClock.now < deadline {
            let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n").first, text.contains("\n") {
                url = String(line)
                break
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        guard url.hasPrefix("http://") else {
            stop()
            throw TestClipError(description: "\(Self.script) printed no URL within 15 s")
        }
    }

    /// Ends the server (killed and reaped). Idempotent.
    func stop() {
        child?.kill()
        child = nil
    }

    deinit { stop() }
}
