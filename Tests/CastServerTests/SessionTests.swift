@testable import CastServer
import CastProtocol
import FilterKit
import MediaKit
import Testing

/// The session validates and applies commands against a real (not started) player.
@Suite struct SessionTests {
    /// The connection the commands come from (only `share` asks whose it is).
    let viewer = 1

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
        let rerendersBefore = session.rerender.count
        try session.apply(.setFilter(name: "sepia", params: ["intensity": 0.5]), from: viewer)
        #expect(session.selection.chain.first.name == "sepia" && session.selection.chain.first["intensity"] == 0.5)
        try session.apply(.setParams(["intensity": 0.25], index: nil), from: viewer)
        #expect(session.selection.chain.first["intensity"] == 0.25)
        runner.apply(to: frame)
        #expect(runner.appliedGeneration == before + 2, "the frame after the change knows it is the first")
        #expect(session.rerender.count == rerendersBefore + 2, "each change asks for a re-render")

        let transport = session.transportGeneration.load(ordering: .relaxed)
        try session.apply(.pause, from: viewer)
        try session.apply(.play, from: viewer)
        let after = session.transportGeneration.load(ordering: .relaxed)
        #expect(after == transport + 2)
    }

    @Test(arguments: [
        (SessionCommand.setFilter(name: "nope", params: [:]), ErrorCode.unknownFilter),
        (.setFilter(name: "sepia", params: ["radius": 1]), .invalidArgument),
        (.setFilter(name: "sepia", params: ["intensity": 2]), .outOfRange),
        (.setParams(["intensity": -1], index: nil), .invalidArgument),  // the current filter is none: no parameters
        (.setParams([:], index: 1), .outOfRange),  // no filter: only link 0
        (.setFilterChain([FilterLinkRequest(name: "invert"), FilterLinkRequest(name: "nope")]), .unknownFilter),
        (.setFilterChain([FilterLinkRequest(name: "invert"), FilterLinkRequest(name: "sepia", params: ["intensity": 2])]), .outOfRange),
        (.setFilterChain([FilterLinkRequest(name: "invert"), FilterLinkRequest(name: "none")]), .invalidArgument),
        (.seek(position: 1), .notSeekable),
    ])
    func refusedCommandsChangeNothing(_ command: SessionCommand, _ code: ErrorCode) throws {
        let session = try Self.liveSession()
        let runner = FilterRunner(selection: session.selection)
        runner.apply(to: Frame(width: 4, height: 4))
        let generation = runner.appliedGeneration
        #expect(throws: ProtocolError.self) { try session.apply(command, from: viewer) }
        do {
            try session.apply(command, from: viewer)
        } catch {
            #expect(error.code == code)
            #expect(error.id == nil, "the transport stamps the id where it dispatches the command")
        }
        #expect(session.selection.chain == .none)
        runner.apply(to: Frame(width: 4, height: 4))
        #expect(runner.appliedGeneration == generation)
    }

    @Test func chainsAreSelectedAndTheirLinksEditedByIndex() throws {
        let session = try Self.liveSession()
        try session.apply(.setFilterChain([FilterLinkRequest(name: "invert"),
                                           FilterLinkRequest(name: "sepia", params: ["intensity": 0.5])]), from: viewer)
        let chain = session.selection.chain
        #expect(chain.links.map(\.name) == ["invert", "sepia"])
        #expect(session.state(viewers: 1, fps: 0).filter == chain)

        try session.apply(.setParams(["intensity": 0.25], index: 1), from: viewer)
        #expect(session.selection.chain.links[1]["intensity"] == 0.25)
        #expect(session.selection.chain.links[0] == chain.links[0])

        // Refused: an index past the chain, a parameter link 0 does not have. Nothing changes.
        let before = session.selection.chain
        let pastEnd = #expect(throws: ProtocolError.self) { try session.apply(.setParams([:], index: 2), from: viewer) }
        #expect(pastEnd?.code == .outOfRange && pastEnd?.id == nil)
        #expect(pastEnd?.message.contains("0…1") == true && pastEnd?.message.contains("got 2") == true)
        let wrongLink = #expect(throws: ProtocolError.self) { try session.apply(.setParams(["intensity": 0.1], index: nil), from: viewer) }
        #expect(wrongLink?.code == .invalidArgument && wrongLink?.message.contains("link 0") == true)
        #expect(session.selection.chain == before)

        // A single filter replaces the whole chain; a chain of `none` clears it.
        try session.apply(.setFilter(name: "pixellate", params: [:]), from: viewer)
        #expect(session.selection.chain.links.map(\.name) == ["pixellate"])
        try session.apply(.setFilterChain([FilterLinkRequest(name: "none")]), from: viewer)
        #expect(session.selection.chain == .none)
    }

    @Test func stateDescribesTheSource() throws {
        let session = try Self.liveSession()
        let state = session.state(viewers: 3, fps: 29.5)
        #expect(state.source.kind == .test && !state.source.seekable)
        #expect(state.source.width == 64 && state.source.height == 48 && state.source.fps == 30)
        #expect(state.duration == nil && state.viewers == 3 && state.fps == 29.5)
    }
}
