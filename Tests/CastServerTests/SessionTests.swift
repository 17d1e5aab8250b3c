@testable import CastServer
import CastProtocol
import FilterKit
import MediaKit
import Testing

/// The session validates and applies commands against a real (not started) player.
@Suite struct SessionTests {
    static func liveSession() throws -> Session {
        let spec = InputSpec.testPattern(width: 64, height: 48, rate: 30)
        return Session(player: Player(source: try spec.open()), input: spec, filter: .none)
    }

    @Test func setFilterAndParamsValidateAndBumpTheGeneration() throws {
        let session = try Self.liveSession()
        let runner = FilterRunner(selection: session.selection)
        let frame = Frame(width: 4, height: 4)
        runner.apply(to: frame)
        let before = runner.appliedGeneration
        try session.apply(.setFilter(name: "sepia", params: ["intensity": 0.5]))
        #expect(session.selection.settings.name == "sepia" && session.selection.settings["intensity"] == 0.5)
        try session.apply(.setParams(["intensity": 0.25]))
        #expect(session.selection.settings["intensity"] == 0.25)
        runner.apply(to: frame)
        #expect(runner.appliedGeneration == before + 2, "the frame after the change knows it is the first")
        let rerender = session.rerenderRequested.load(ordering: .relaxed)
        #expect(rerender)

        let transport = session.transportGeneration.load(ordering: .relaxed)
        try session.apply(.pause)
        try session.apply(.play)
        let after = session.transportGeneration.load(ordering: .relaxed)
        #expect(after == transport + 2)
    }

    @Test(arguments: [
        (ClientCommand.setFilter(name: "nope", params: [:]), ErrorCode.unknownFilter),
        (.setFilter(name: "sepia", params: ["radius": 1]), .invalidArgument),
        (.setFilter(name: "sepia", params: ["intensity": 2]), .outOfRange),
        (.setParams(["intensity": -1]), .invalidArgument),  // the current filter is none: no parameters
        (.seek(position: 1), .notSeekable),
    ])
    func refusedCommandsChangeNothing(_ command: ClientCommand, _ code: ErrorCode) throws {
        let session = try Self.liveSession()
        let runner = FilterRunner(selection: session.selection)
        runner.apply(to: Frame(width: 4, height: 4))
        let generation = runner.appliedGeneration
        #expect(throws: ProtocolError.self) { try session.apply(command, id: .string("x")) }
        do {
            try session.apply(command, id: .string("x"))
        } catch {
            #expect(error.code == code)
            #expect(error.id == .string("x"))
        }
        #expect(session.selection.settings == .none)
        runner.apply(to: Frame(width: 4, height: 4))
        #expect(runner.appliedGeneration == generation)
    }

    @Test func stateDescribesTheSource() throws {
        let session = try Self.liveSession()
        let state = session.state(viewers: 3, fps: 29.5)
        #expect(state.source.kind == "test" && !state.source.seekable)
        #expect(state.source.width == 64 && state.source.height == 48 && state.source.fps == 30)
        #expect(state.duration == nil && state.viewers == 3 && state.fps == 29.5)
    }
}
