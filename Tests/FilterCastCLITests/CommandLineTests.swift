import Foundation
import Testing

/// The `filtercast` executable as a user meets it: help, exit codes, one-line errors, outputs.
@Suite struct CommandLineTests {
    @Test(arguments: [[], ["bench"], ["snapshot"], ["filters"], ["serve"]])
    func helpIsThereForEverySubcommand(_ subcommand: [String]) throws {
        let run = try CLI.run(subcommand + ["--help"])
        #expect(run.status == 0)
        #expect(run.output.contains("Usage: filtercast"))
    }

    /// (arguments, expected exit code, words the single error line must contain)
    static let badCommandLines: [([String], Int32, [String])] = [
        (["frobnicate"], 2, ["frobnicate"]),
        (["bench", "--bogus"], 2, ["--bogus"]),
        (["bench", "--frames", "many"], 2, ["--frames", "many"]),
        (["bench", "--threads", "0"], 2, ["--threads"]),
        (["bench", "--input", "test:0x0"], 2, ["test:0x0"]),
        (["snapshot", "--input", "x.mp4"], 2, ["-o"]),
        (["snapshot", "--filter", "nope", "-o", "x.jpg"], 2, ["nope", "sepia"]),
        (["snapshot", "--filter", "sepia", "--param", "intensity=5", "-o", "x.jpg"], 2, ["intensity", "0…1", "5"]),
        (["snapshot", "--filter", "sepia", "--param", "radius=5", "-o", "x.jpg"], 2, ["radius", "intensity"]),
        (["snapshot", "--filter", "sepia", "--param", "intensity=nan", "-o", "x.jpg"], 2, ["intensity"]),
        (["snapshot", "--filter", "sepia", "--param", "intensity", "-o", "x.jpg"], 2, ["name=value"]),
        (["snapshot", "--at", "-3", "-o", "x.jpg"], 2, ["--at"]),
        (["snapshot", "--input", "/nonexistent/clip.mp4", "-o", "x.jpg"], 1, ["/nonexistent/clip.mp4"]),
        (["bench", "--input", "/nonexistent/clip.mp4"], 1, ["/nonexistent/clip.mp4"]),
        (["serve", "--web", "/nonexistent/web"], 1, ["/nonexistent/web"]),
        (["serve", "--port", "70000"], 2, ["--port"]),
        (["serve", "--size", "big"], 2, ["--size"]),
        (["serve", "--input", "/nonexistent/clip.mp4", "--web", "/tmp"], 1, ["/nonexistent/clip.mp4"]),
        // Not an address: refused before anything starts; an address this machine lacks: cannot bind.
        (["serve", "--host", "999.1.1.1"], 2, ["--host", "999.1.1.1"]),
        (["serve", "--host", "example"], 2, ["--host", "IPv4"]),
        (["serve", "--host", "203.0.113.7", "--port", "0", "--token", "t"], 1, ["203.0.113.7", "no address"]),
        (["serve", "--public-view"], 2, ["--public-view", "--token"]),
        (["serve", "--token", "same", "--admin-token", "same"], 2, ["--admin-token", "differ from --token"]),
        (["serve", "--admin-token="], 2, ["--admin-token", "must not be empty"]),
        (["serve", "--allow-origin", "example.com"], 2, ["--allow-origin", "scheme://host"]),
        (["serve", "--allow-origin", "https://example.com/path"], 2, ["--allow-origin", "no path"]),
        (["serve", "--open-timeout", "0"], 2, ["--open-timeout"]),
        (["serve", "--uploads", "up", "--max-upload-size", "lots"], 2, ["--max-upload-size", "500M", "lots"]),
        (["serve", "--jpeg-ladder", "720,,360"], 2, ["--jpeg-ladder", "720,360,180"]),
        (["serve", "--jpeg-ladder", "8"], 2, ["--jpeg-ladder", "16…4320"]),
        (["serve", "--h264-ladder", "720@fast"], 2, ["--h264-ladder", "HEIGHT[@BITS]", "720@fast"]),
        (["serve", "--h264-ladder", "720@10"], 2, ["--h264-ladder", "100k…100M"]),
        (["serve", "--h264-ladder", "360,360@1M"], 2, ["--h264-ladder", "360 twice"]),
        // TLS: both files or neither; a file that is not there stops the start (before the source opens).
        (["serve", "--tls-cert", "cert.pem"], 2, ["--tls-cert", "needs --tls-key"]),
        (["serve", "--tls-key", "key.pem"], 2, ["--tls-key", "needs --tls-cert"]),
        (["serve", "--tls-cert=", "--tls-key", "key.pem"], 2, ["--tls-cert", "must name a file"]),
        (["serve", "--tls-cert", "/nonexistent/cert.pem", "--tls-key", "/nonexistent/key.pem"], 1,
         ["/nonexistent/cert.pem", "no such file"]),
        // Angles in degrees, as the page shows them.
        (["snapshot", "--filter", "twirl", "--param", "angle=2000", "-o", "x.jpg"], 2, ["twirl.angle", "-1440°…1440°", "2000°"]),
    ]

    @Test(arguments: badCommandLines)
    func badInputGivesOneLineAndAnExitCode(_ arguments: [String], _ status: Int32, _ words: [String]) throws {
        let run = try CLI.run(arguments)
        #expect(run.status == status, "\(arguments): \(run.errors)")
        #expect(run.errorLines.count == 1, "one line, got: \(run.errors)")
        for word in words {
            #expect(run.errors.contains(word), "\(arguments): '\(word)' missing from: \(run.errors)")
        }
    }

    /// A port in use: FilterCast's one line (libwebsockets says nothing of its own), exit code 1.
    @Test func aPortInUseIsOneLine() throws {
        let (listener, port) = try CLI.listen()
        defer { close(listener) }
        let run = try CLI.run(["serve", "--input", "test:160x120@10", "--port", String(port)])
        #expect(run.status == 1)
        #expect(run.errorLines.count == 1 && run.errors.contains("127.0.0.1:\(port)") && run.errors.contains("in use"), "\(run.errors)")
        #expect(run.output.isEmpty, "no ready line: \(run.output)")
    }

    /// `FILTERCAST_TLS_CERT` and `FILTERCAST_TLS_KEY` are known variables (no warning), and one
    /// without the other is the usage error naming the variable given and the flag missing.
    @Test func tlsFromTheEnvironmentNeedsBothVariables() throws {
        let run = try CLI.run(["serve", "--port", "0"], environment: ["FILTERCAST_TLS_KEY": "/nonexistent/key.pem"])
        #expect(run.status == 2, "\(run.errors)")
        #expect(run.errorLines.count == 1 && run.errors.contains("FILTERCAST_TLS_KEY needs --tls-cert"), "\(run.errors)")
        let both = try CLI.run(["serve", "--port", "0"], environment: ["FILTERCAST_TLS_CERT": "/nonexistent/cert.pem",
                                                                      "FILTERCAST_TLS_KEY": "/nonexistent/key.pem"])
        #expect(both.status == 1 && both.errorLines.count == 1 && both.errors.contains("/nonexistent/cert.pem"), "\(both.errors)")
        #expect(!both.errors.contains("unknown environment variable"), "\(both.errors)")
    }

    /// An input that accepts the connection and then says nothing, and a UDP port nobody sends
    /// to: one line after the open timeout, exit code 1 (they used to hang for ever).
    @Test func anInputThatNeverAnswersFailsAfterTheOpenTimeout() throws {
        let (listener, port) = try CLI.listen()
        defer { close(listener) }
        for input in ["rtsp://127.0.0.1:\(port)/x", "rtmp://127.0.0.1:\(port)/live/x", "udp://127.0.0.1:\(port)",
                      "tcp://127.0.0.1:\(port)", "http://127.0.0.1:\(port)/x.mp4"] {
            let started = Date()
            let run = try CLI.run(["serve", "--port", "0", "--input", input, "--open-timeout", "1.5"], timeout: 20)
            let seconds = Date().timeIntervalSince(started)
            #expect(run.status == 1, "\(input): \(run.errors)")
            #expect(run.errorLines.count == 1 && run.errors.contains(input), "\(input): \(run.errors)")
            #expect(seconds < 8, "\(input) took \(seconds) s")
        }
    }

    @Test func unreadableFilesFailCleanly() throws {
        let empty = CLI.temporaryPath("empty.mp4"), text = CLI.temporaryPath("notes.mp4")
        _ = FileManager.default.createFile(atPath: empty, contents: Data())
        _ = FileManager.default.createFile(atPath: text, contents: Data("not a video\n".utf8))
        defer {
            try? FileManager.default.removeItem(atPath: empty)
            try? FileManager.default.removeItem(atPath: text)
        }
        for path in [empty, text] {
            let run = try CLI.run(["snapshot", "--input", path, "-o", CLI.temporaryPath("x.jpg")])
            #expect(run.status == 1)
            #expect(run.errorLines.count == 1 && run.errors.contains(path), "\(run.errors)")
        }
    }

    @Test func snapshotWritesTheFilteredFrameAtTheRequestedTime() throws {
        let output = CLI.temporaryPath("frame.jpg")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let run = try CLI.run(["snapshot", "--input", CLI.clip, "--at", "0.47", "--filter", "sepia",
                               "--param", "intensity=0.8", "--quality", "85", "-o", output])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("0.480 s"), "the first frame at or after 0.47 s is 0.48 s (25 fps): \(run.output)")
        let jpeg = try [UInt8](Data(contentsOf: URL(fileURLWithPath: output)))
        #expect(jpeg.prefix(2) == [0xFF, 0xD8] && jpeg.suffix(2) == [0xFF, 0xD9])
        // The baseline frame header (SOF0) carries the height and width.
        let sof = try #require(jpeg.indices.dropLast(8).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 })
        #expect(Int(jpeg[sof + 5]) << 8 | Int(jpeg[sof + 6]) == 240)
        #expect(Int(jpeg[sof + 7]) << 8 | Int(jpeg[sof + 8]) == 320)
    }

    @Test func snapshotPastTheEndIsRefused() throws {
        let run = try CLI.run(["snapshot", "--input", CLI.clip, "--at", "9", "-o", CLI.temporaryPath("x.jpg")])
        #expect(run.status == 2)
        #expect(run.errors.contains("past the end"))
    }

    @Test func filtersJSONHasTheCatalogShape() throws {
        let run = try CLI.run(["filters", "--json"])
        #expect(run.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        let filters = try #require(json["filters"] as? [[String: Any]])
        #expect(filters.first?["name"] as? String == "none")
        #expect(Set(filters.compactMap { $0["name"] as? String }).isSuperset(of: ["none", "sepia", "pixellate", "comic"]))
        for filter in filters {
            #expect(Set(filter.keys) == ["name", "label", "category", "params"])
            for parameter in try #require(filter["params"] as? [[String: Any]]) {
                // A parameter of the choice kind (style's) has its choices beside the numeric fields.
                let choiceKeys: Set<String> = parameter["kind"] as? String == "choice" ? ["kind", "choices"] : []
                #expect(Set(parameter.keys) == choiceKeys.union(["name", "label", "type", "default", "min", "max",
                                                                  "sliderMin", "sliderMax", "step", "identity"]))
            }
        }
    }

    @Test func benchReportsEveryStage() throws {
        let run = try CLI.run(["bench", "--input", "test:160x120@30", "--frames", "12", "--filter", "comic",
                               "--threads", "2", "--json"])
        #expect(run.status == 0, "\(run.errors)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        #expect(json["frames"] as? Int == 12)
        #expect(json["threads"] as? Int == 2)
        for key in ["fps", "decodeMs", "filterMs", "encodeMs", "bytesPerFrame"] {
            #expect((json[key] as? Double ?? 0) > 0, "\(key) in \(run.output)")
        }
        let text = try CLI.run(["bench", "--input", CLI.clip])
        #expect(text.status == 0)
        #expect(text.output.contains("frames   25 in"), "the whole file: \(text.output)")
    }
}
