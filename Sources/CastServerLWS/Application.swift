import CastServer
import CastProtocol
import FilterKit
import Foundation
import Logging
import MediaKit
import Synchronization
import Telemetry

/// The composition root of `filtercast serve`: builds every channel complete (``Channel``: its
/// player, library, recorder, publisher, session, outputs and processing loop), the metrics and
/// the transport, then starts and stops them in order.
///
/// Frames flow one way in each channel: player → processor → outputs → (viewers' streams)
/// transport. Commands come back from the transport to the session of the viewer's channel,
/// the one owner of that channel's state.
public final class Application: Sendable {
    public let configuration: ServerConfiguration
    /// Every channel, the default one first.
    public let channels: [Channel]
    let transport: WebSocketServer
    /// Every part with a life of its own, in the order they start (they stop in reverse).
    private let services: ServiceList

    /// Checks the TLS files, opens every channel's source and builds everything (errors surface
    /// here: the TLS files — first, so that a wrong path does not wait for a slow source —, the
    /// sources, the library folders, the encoders); `start()` listens and runs.
    public init(configuration: ServerConfiguration) throws {
        self.configuration = configuration
        try configuration.tls?.check()
        let speed = configuration.playback.speed
        if speed != 1 { Log.info("no sound at --speed \(speed): the pictures play alone") }
        let wake = NetworkWake()
        var channels = [try Channel(name: configuration.defaultChannel, input: configuration.input, isDefault: true,
                                    configuration: configuration, wake: wake)]
        for channel in configuration.channels {
            do {
                channels.append(try Channel(name: channel.name, input: channel.input, isDefault: false,
                                            configuration: channel.configuring(configuration), wake: wake))
            } catch {
                throw ServerError(description: "channel \(channel.name): \(error)")
            }
        }
        self.channels = channels
        let main = channels[0]
        let transportCounters = TransportCounters()
        let metrics = ServerMetrics.make(channels: channels, transport: transportCounters,
                                       uploads: main.session.library?.uploads != nil)
        let core = ServerCore(configuration: configuration, channels: ChannelRegistry(channels), counters: transportCounters,
                              metrics: metrics, files: try StaticFiles(root: configuration.webRoot), wake: wake)
        transport = WebSocketServer(configuration: configuration, core: core, wake: wake)
        let transport = transport
        let desk = core.channelDesk, thumbnails = core.seekThumbnails
        services = ServiceList([Service("listener", start: transport.listen, stop: transport.release),
                                Service("channels", start: { try desk.start(channels, recordAtStart: configuration.recordAtStart) },
                                        stop: desk.stopAll),
                                Service("network", start: transport.serve, stop: transport.closeConnections),
                                Service("thumbnails", start: {}, stop: thumbnails.stop)])
    }

    /// The port the server listens on (useful with `port: 0`).
    public var port: Int { transport.port }

    /// What the default channel plays now: its name and frame size.
    public var source: SourceInfo { channels[0].session.player.info }

    /// Starts every service in order: binds first (a port in use or an address this machine lacks
    /// fails here, before anything runs), then each channel's (the sound, the decode thread, the
    /// publisher, `--record`, the processing loop), and serving.
    public func start() throws { try services.start() }

    /// Graceful shutdown within about a second, the services in reverse: close frames to every
    /// viewer, then each channel's processing loop, a recording (finished and saved), the
    /// encoders, the publisher, the decode thread, the sound; then lws is let go.
    public func stop() { services.stop() }
}
