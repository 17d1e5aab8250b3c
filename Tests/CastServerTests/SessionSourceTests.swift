@testable import CastServer
import CastProtocol
import FilterKit
import Foundation
import MediaKit
import Testing

/// What the session plays and the way back to its start input: `open {source: "input"}`, a
/// deleted or vanished recording, seeks past the end, a recording without frames. Real FFmpeg, real
/// files, a started player.
@Suite(.timeLimit(.minutes(3))) struct SessionSourceTests {
    /// The connection the commands come from (only `share` asks whose it is).
    let viewer = 1

    /// A folder of its own holding `recordings/` with `clip.mp4`: 2 s of testsrc2 at 25 fps.
    static func folder() throws -> URL {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("session-\(UUID().uuidString)")
        let recordings = base.appendingPathComponent("recordings")
        try FileManager.default.createDirectory(at: recordings, withIntermediateDirectories: true)
        try ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25:duration=2", "-c:v", "libx264", "-g", "12",
                    "-pix_fmt", "yuv420p", recordings.appendingPathComponent("clip.mp4").path])
        return base
    }

    static func ffmpeg(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = ["-nostdin", "-hide_banner", "-loglevel", "error", "-y"] + arguments
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "ffmpeg \(arguments)")
    }

    /// A started session on `input` at 160x120, with the library in `base` and a recorder.
    static func session(_ input: InputSpec, in base: URL) throws -> Session {
        var options = SourceOptions()
        options.outputSize = (160, 120)
        let source = try input.open(options)
        let player = Player(source: source, reopen: input.reopener(options, width: 160, height: 120))
        let library = try MediaLibrary(recordingsPath: base.appendingPathComponent("recordings").path, mediaPath: nil)
        let recorder = Recorder(width: 160, height: 120, frameRate: 25,
                                options: RecorderOptions(directory: library.recordings.root))
        let session = Session(player: player, input: input, filter: .none, recorder: recorder, library: library,
                              inputOpener: input.opener(options, width: 160, height: 120))
        player.start()
        return session
    }

    /// Runs `body` with a started session on `input` (the test pattern, or what it makes of
    /// the folder) and its folder (see ``session(_:in:)``), then stops it and removes the folder.
    static func withSession(_ input: (URL) -> InputSpec = { _ in pattern }, _ body: (Session, URL) throws -> Void) throws {
        let base = try folder()
        defer { try? FileManager.default.removeItem(at: base) }
        let session = try session(input(base), in: base)
        defer { session.player.stop() }
        try body(session, base)
    }

    static let pattern = InputSpec.testPattern(width: 160, height: 120, rate: 30)

    /// The folder's clip as the start input.
    static func clipInput(_ base: URL) -> InputSpec { .file(base.appendingPathComponent("recordings/clip.mp4").path) }

    /// The next frame `where` accepts (the others are recycled), or nil after 5 s.
    static func frame(of session: Session, where accept: (Frame) -> Bool) -> Frame? {
        let player = session.player
        let deadline = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < deadline {
            // nil: timed out, or a poke (a re-render request wakes the processing loop).
            guard let frame = player.output.take(timeout: ContinuousClock.now.duration(to: deadline)) else { continue }
            if accept(frame) { return frame }
            player.pool.recycle(frame)
        }
        return nil
    }

    /// Waits until the session's state satisfies `condition` (5 s at most).
    static func eventually(_ session: Session, _ condition: (SessionState) -> Bool) -> SessionState {
        let deadline = ContinuousClock.now + .seconds(5)
        var state = session.state(viewers: 1, fps: 0)
        while !condition(state) && ContinuousClock.now < deadline {
            usleep(20_000)
            state = session.state(viewers: 1, fps: 0)
        }
        return state
    }

    @Test func openInputReturnsFromARecordingToTheStartInput() throws {
        try Self.withSession { session, base in
            #expect(session.state(viewers: 1, fps: 0).source.startInput)

            try session.apply(.open(source: "recordings/clip.mp4"), from: viewer)
            let playing = session.state(viewers: 1, fps: 0)
            #expect(playing.source.name == "recordings/clip.mp4" && !playing.source.startInput && playing.duration != nil)

            try session.apply(.open(source: "input"), from: viewer)
            let back = session.state(viewers: 1, fps: 0)
            #expect(back.source == session.startSource && back.source.startInput && back.source.kind == .test)
            #expect(back.duration == nil && session.player.info.isLive)
            // The test pattern's frames come again: a discontinuity, then frames that go on.
            let first = try #require(Self.frame(of: session) { $0.isDiscontinuity && session.player.info.isLive })
            session.player.pool.recycle(first)
            #expect(Self.eventually(session) { $0.source.online && $0.playing }.source.online)
            #expect(Self.frame(of: session) { !$0.isDiscontinuity }.map { session.player.pool.recycle($0) } != nil)
        }
    }

    /// `open {asRecorded}` plays a recording without the program's filter on top (sepia over
    /// sepia), and going back to the input gives the chain back — unless one was chosen meanwhile.
    @Test func aRecordingPlayedAsRecordedHasNoFilterAndTheInputGetsItsChainBack() throws {
        try Self.withSession { session, base in
            let chain = [FilterLinkRequest(name: "sepia", params: [:]), FilterLinkRequest(name: "vignette", params: [:])]
            try session.apply(.setFilterChain(chain), from: viewer)
            try session.apply(.open(source: "recordings/clip.mp4", asRecorded: true), from: viewer)
            #expect(session.selection.chain.links.isEmpty)
            // A second recording played as recorded keeps the chain set aside (not "none").
            try session.apply(.open(source: "recordings/clip.mp4", asRecorded: true), from: viewer)
            try session.apply(.open(source: "input"), from: viewer)
            #expect(session.selection.chain.links.map(\.name) == ["sepia", "vignette"])

            // Played with the filter (no asRecorded): the filter stays.
            try session.apply(.open(source: "recordings/clip.mp4"), from: viewer)
            #expect(session.selection.chain.links.map(\.name) == ["sepia", "vignette"])
            try session.apply(.open(source: "input"), from: viewer)

            // A filter chosen while the recording plays is the one kept.
            try session.apply(.open(source: "recordings/clip.mp4", asRecorded: true), from: viewer)
            try session.apply(.setFilter(name: "invert", params: [:]), from: viewer)
            try session.apply(.open(source: "input"), from: viewer)
            #expect(session.selection.chain.links.map(\.name) == ["invert"])
        }
    }

    /// `state.source` names a file input by its file name, never the server's path, and says what
    /// `open` names to play each source again (`reference`), one way however it was named.
    @Test func theSourceSaysWhatPlaysWithoutAServerPath() throws {
        try Self.withSession(Self.clipInput) { session, base in
            let start = session.state(viewers: 1, fps: 0).source
            #expect(start.name == "clip.mp4" && start.reference == "input" && start.startInput)
            try session.apply(.open(source: "recordings//clip.mp4"), from: viewer)
            let file = session.state(viewers: 1, fps: 0).source
            #expect(file.name == "recordings/clip.mp4" && file.reference == "recordings/clip.mp4" && !file.startInput)
            try session.apply(.open(source: "input"), from: viewer)
            #expect(session.state(viewers: 1, fps: 0).source.reference == "input")
        }
    }

    @Test func deletingTheRecordingThatPlaysReturnsToTheStartInput() throws {
        try Self.withSession { session, base in
            try session.apply(.open(source: "recordings/clip.mp4"), from: viewer)
            try session.apply(.delete(source: "recordings//clip.mp4"), from: viewer)  // however it is named
            #expect(!FileManager.default.fileExists(atPath: base.appendingPathComponent("recordings/clip.mp4").path))
            let state = session.state(viewers: 1, fps: 0)
            #expect(state.source.startInput && state.source.kind == .test)
            let frame = try #require(Self.frame(of: session) { $0.isDiscontinuity && session.player.info.isLive })
            session.player.pool.recycle(frame)
            #expect(Self.eventually(session) { $0.source.online && $0.playing }.playing)
        }
    }

    @Test func aRecordingThatVanishedWhilePlayingHasTheWayBack() throws {
        try Self.withSession { session, base in
            try session.apply(.open(source: "recordings/clip.mp4"), from: viewer)
            try FileManager.default.removeItem(at: base.appendingPathComponent("recordings/clip.mp4"))
            try session.apply(.seek(position: 1), from: viewer)  // a seek checks the file
            let failed = Self.eventually(session) { !$0.source.online }
            #expect(!failed.source.online && failed.source.reason?.contains("recordings/clip.mp4: the file was deleted") == true,
                    "\(String(describing: failed.source.reason))")
            // Recording has nothing to record now, and says what to do.
            let refused = #expect(throws: ProtocolError.self) { try session.apply(.record(start: true, filtered: true), from: viewer) }
            #expect(refused?.code == .recordingFailed && refused?.message.contains("go back to the input") == true)

            try session.apply(.open(source: "input"), from: viewer)
            let back = Self.eventually(session) { $0.source.online && $0.playing }
            #expect(back.source.online && back.playing && back.source.startInput)
        }
    }

    @Test func openInputRestartsAStartFileAndALiveStartInputGoesOn() throws {
        try Self.withSession(Self.clipInput) { session, base in
            try session.apply(.seek(position: 1.5), from: viewer)
            let sought = try #require(Self.frame(of: session) { $0.isDiscontinuity && $0.time > 1 })
            session.player.pool.recycle(sought)
            try session.apply(.open(source: "input"), from: viewer)
            let restarted = try #require(Self.frame(of: session) { $0.isDiscontinuity })
            #expect(restarted.time < 0.05, "the start file plays again from its start, not from \(restarted.time) s")
            session.player.pool.recycle(restarted)

            let live = try Self.session(Self.pattern, in: base)
            defer { live.player.stop() }
            let before = live.transportGeneration.load(ordering: .relaxed)
            try live.apply(.open(source: "input"), from: viewer)
            #expect(live.transportGeneration.load(ordering: .relaxed) == before, "a live start input that plays goes on")
        }
    }

    @Test func openInputWithoutAnOpenerIsRefused() throws {
        let session = Session(player: Player(source: try Self.pattern.open()), input: Self.pattern, filter: .none)
        let error = #expect(throws: ProtocolError.self) { try session.apply(.open(source: "input"), from: viewer) }
        #expect(error?.code == .openFailed && error?.id == nil, "the dispatcher stamps the id")
    }

    @Test(arguments: [2.0, 2.5, 1e6])
    func seekPastTheEndShowsTheLastFrame(_ position: Double) throws {
        try Self.withSession(Self.clipInput) { session, _ in
            try session.apply(.pause, from: viewer)
            try session.apply(.seek(position: position), from: viewer)
            let last = try #require(Self.frame(of: session) { $0.isDiscontinuity && $0.time > 1 })
            #expect(abs(last.time - 1.96) < 1e-6, "seek to \(position) s gave the frame at \(last.time) s")
            session.player.pool.recycle(last)
        }
    }

    @Test func stoppingARecordingThatGotNoFrameSaysSoAndKeepsNoFile() throws {
        try Self.withSession { session, base in
            try session.apply(.record(start: true, filtered: true), from: viewer)
            let name = try #require(session.recorder?.status.name)
            // Nobody hands the recorder frames here (no processing thread): it ends empty.
            let error = #expect(throws: ProtocolError.self) { try session.apply(.record(start: false, filtered: true), from: viewer) }
            #expect(error?.code == .recordingFailed && error?.message.contains("no file was kept") == true,
                    "\(String(describing: error))")
            #expect(!FileManager.default.fileExists(atPath: base.appendingPathComponent("recordings/\(name)").path))
            #expect(session.state(viewers: 1, fps: 0).recording.error?.contains("no frame") == true)
        }
    }
}
