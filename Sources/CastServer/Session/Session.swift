import CastProtocol
import FilterKit
import MediaKit
import Synchronization

/// The one owner of the shared state — source, playing, position, filter — for every viewer.
///
/// Commands from any client become calls here; each is validated, applied, and then the caller
/// (the transport) publishes the new state to everyone. Nothing else changes this state.
public final class Session: Sendable {
    public let player: Player
    public let selection: FilterSelection
    public let catalog: FilterCatalog
    private let sourceState: SourceState
    /// Bumped on play and pause: the processor flags the first frame after it. (Filter changes
    /// are seen through `FilterRunner.appliedGeneration`, seeks through `Frame.isDiscontinuity`:
    /// both arrive with the very frame they affect.)
    let transportGeneration = Atomic<Int>(0)
    /// Set when the current frame must be filtered and encoded again although the source is
    /// paused (a filter change or a new viewer while paused).
    let rerenderRequested = Atomic<Bool>(false)

    public init(player: Player, input: InputSpec, filter: FilterSettings, catalog: FilterCatalog = .standard) {
        self.player = player
        self.catalog = catalog
        selection = FilterSelection(filter)
        let info = player.info
        let kind: String = switch input {
        case .testPattern: "test"
        case .camera: "camera"
        case .file: info.isLive ? "stream" : "file"
        }
        sourceState = SourceState(kind: kind, name: info.name, seekable: !info.isLive, width: info.width,
                                  height: info.height, fps: info.frameRate)
    }

    /// The state every viewer sees.
    public func state(viewers: Int, fps: Double) -> SessionState {
        let playback = player.playbackState
        return SessionState(source: sourceState, playing: playback.isPlaying, position: playback.position,
                            duration: playback.duration, filter: selection.settings, viewers: viewers, fps: fps)
    }

    /// Applies a state-changing command (`setFilter`, `setParams`, `play`, `pause`, `seek`).
    /// Throws without changing anything when the command is invalid.
    public func apply(_ command: ClientCommand, id: MessageID? = nil) throws(ProtocolError) {
        switch command {
        case .setFilter(let name, let parameters):
            select(try validated(name: name, parameters: parameters, id: id))
        case .setParams(let parameters):
            let current = selection.settings
            select(try validated(name: current.name, parameters: current.values.merging(parameters) { $1 }, id: id))
        case .play:
            player.play()
            transportGeneration.add(1, ordering: .relaxed)
        case .pause:
            player.pause()
            transportGeneration.add(1, ordering: .relaxed)
            rerenderRequested.store(true, ordering: .releasing)
        case .seek(let position):
            guard sourceState.seekable else {
                throw ProtocolError(code: .notSeekable, message: "\(sourceState.name) is live and cannot seek", id: id)
            }
            if let duration = player.info.duration, position > duration {
                throw ProtocolError(code: .outOfRange,
                                    message: "position must be in 0…\(duration) s, got \(position)", id: id)
            }
            do {
                try player.seek(to: position)
            } catch {
                throw ProtocolError(code: .outOfRange, message: error.description, id: id)
            }
        case .frameAck, .flow, .auth:
            preconditionFailure("\(command) is handled by the transport")
        }
    }

    private func validated(name: String, parameters: [String: Double], id: MessageID?) throws(ProtocolError) -> FilterSettings {
        do {
            return try FilterSettings(name: name, parameters: parameters, catalog: catalog)
        } catch {
            throw ProtocolError(error, id: id)
        }
    }

    private func select(_ settings: FilterSettings) {
        selection.select(settings)
        rerenderRequested.store(true, ordering: .releasing)
    }
}
