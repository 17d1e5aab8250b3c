import Foundation

/// A real HTTP server for one media file: `Tests/EndToEnd/media_http.py` run with Debian's
/// python3, with or without byte ranges, optionally cutting its first response short at a
/// byte (a connection that drops mid-file). It serves until `stop()`.
final class MediaHTTPServer {
    static let python = "/usr/bin/python3"
    /// The helper script, found from this file's place in the checkout.
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../EndToEnd/media_http.py").standardized.path

    /// Where the file is served.
    let url: String
    private let process = Process()
    private let input = Pipe()

    init(serving path: String, ranges: Bool, dropAfter: Int? = nil) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.python) else {
            throw TestClipError(description: "\(Self.python) is missing: the HTTP input tests need it")
        }
        process.executableURL = URL(fileURLWithPath: Self.python)
        process.arguments = [Self.script, path] + (ranges ? [] : ["--no-ranges"])
            + (dropAfter.map { ["--drop-after", String($0)] } ?? [])
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Its first line is the URL, printed once it listens.
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            line.append(chunk)
        }
        url = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard url.hasPrefix("http://") else {
            stop()
            throw TestClipError(description: "\(Self.script) did not print its URL (got '\(url)')")
        }
    }

    /// Ends the server: it exits when its standard input closes.
    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}
