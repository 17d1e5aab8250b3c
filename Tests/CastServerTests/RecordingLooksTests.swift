@testable import CastServer
import CastProtocol
import FilterKit
import Foundation
import MediaKit
import Testing

/// A filtered recording carries its looks: the program chain at its start and every change, in a
/// sidecar (`NAME.mp4.json`) written when the take finishes, listed by `GET /api/recordings` and
/// deleted with the recording. Real FFmpeg, a started player; the test hands the recorder the
/// frames the processing thread would.
@Suite(.timeLimit(.minutes(3))) struct RecordingLooksTests {
    let viewer = 1

    /// Hands the recorder `count` of the session's frames, as filtered ones.
    static func record(_ count: Int, of session: Session) throws {
        for _ in 0..<count {
            let frame = try #require(SessionSourceTests.frame(of: session) { _ in true })
            session.recorder?.record(frame, filtered: true)
            session.player.pool.recycle(frame)
        }
    }

    @Test func aFilteredRecordingListsItsChainAndEveryChangeAndLosesThemWithTheFile() throws {
        try SessionSourceTests.withSession { session, base in
            try session.apply(.setFilter(name: "sepia", params: [:]), from: viewer)
            try session.apply(.record(start: true, filtered: true), from: viewer)
            let name = try #require(session.recorder?.status.name)
            try Self.record(5, of: session)
            try session.apply(.setFilterChain([FilterLinkRequest(name: "sepia", params: [:]),
                                                      FilterLinkRequest(name: "vignette", params: [:])]), from: viewer)
            try Self.record(5, of: session)
            try session.apply(.setFilter(name: "none", params: [:]), from: viewer)
            try session.apply(.setFilter(name: "invert", params: [:], to: .preview), from: viewer)  // not on air
            try session.apply(.record(start: false, filtered: true), from: viewer)
            // After the stop, changes are no recording's.
            try session.apply(.setFilter(name: "sepia", params: [:]), from: viewer)

            let sidecar = base.appendingPathComponent("recordings/\(name).json")
            let written = try JSONDecoder().decode(RecordingLooks.self, from: Data(contentsOf: sidecar))
            #expect(written.looks.map { $0.chain.map(\.name) } == [["sepia"], ["sepia", "vignette"], []])
            #expect(written.looks[0].at == 0 && written.looks[1].at > 0 && written.looks[2].at >= written.looks[1].at)
            #expect(written.looks[0].chain[0].params["intensity"] != nil && written.truncated == nil)

            let library = try #require(session.library)
            let entry = try #require(library.listRecordings().first { $0.name == name })
            #expect(entry.looks == written.looks && entry.looksTruncated == nil && entry.filter == "sepia")
            // The start clip has no sidecar: no looks.
            #expect(library.listRecordings().first { $0.name == "clip.mp4" }?.looks == nil)

            try session.apply(.delete(source: "recordings/\(name)"), from: viewer)
            #expect(!FileManager.default.fileExists(atPath: sidecar.path))
        }
    }

    @Test func aRecordingOfTheSourceHasNoLooks() throws {
        try SessionSourceTests.withSession { session, base in
            try session.apply(.setFilter(name: "sepia", params: [:]), from: viewer)
            try session.apply(.record(start: true, filtered: false), from: viewer)
            let name = try #require(session.recorder?.status.name)
            for _ in 0..<5 {
                let frame = try #require(SessionSourceTests.frame(of: session) { _ in true })
                session.recorder?.record(frame, filtered: false)
                session.player.pool.recycle(frame)
            }
            try session.apply(.record(start: false, filtered: false), from: viewer)
            #expect(FileManager.default.fileExists(atPath: base.appendingPathComponent("recordings/\(name)").path))
            #expect(!FileManager.default.fileExists(atPath: base.appendingPathComponent("recordings/\(name).json").path))
        }
    }

    @Test func theLogKeepsAThousandChangesThenSaysTruncated() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("looks-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = FileManager.default.createFile(atPath: folder.appendingPathComponent("take.mp4").path, contents: Data([0]))
        let log = RecordingLookLog()
        let sepia = try FilterChain(validating: [("sepia", [:], .all)], catalog: .standard)
        log.start("take.mp4", in: folder.path, chain: .none)
        for _ in 0..<(RecordingLookLog.changeLimit + 5) { log.note(sepia) }
        #expect(log.finish(name: "another.mp4", droppedFrames: 0) == nil)  // not this take: nothing written
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("take.mp4.json").path))
        #expect(log.finish(droppedFrames: 3) == nil)
        let written = try #require(RecordingLooks.read(folder.appendingPathComponent("take.mp4.json").path))
        #expect(written.looks.count == RecordingLookLog.changeLimit + 1 && written.truncated == true)
        #expect(written.droppedFrames == 3, "the frames the take left out are kept with it")
        #expect(written.looks[0].chain.isEmpty && written.looks[1].chain.map(\.name) == ["sepia"])
    }
}
