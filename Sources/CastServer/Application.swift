import CastProtocol
import FilterKit
import Foundation
import Logging
import MediaKit
import Synchronization
import Telemetry

/// The composition root of `filtercast serve`: opens the source, builds every part and wires
/// them — the player, the library, the recorder and the publisher, the session that owns them,
/// the outputs (the viewers' JPEG stream and H.264 renditions, the recorder, the publisher), the processing loop that
/// feeds them, the metrics, and the transport — then starts and stops them in order.
///
/// Frames flow one way: player → processor → outputs → (viewers' stream) transport. Commands come
/// back from the transport to the session, the one owner of the session state.
public final class Application: Sendable {
    public let configuration: ServerConfiguration
    public let session: Session
    let viewers: ViewerOutputs
    let processor: FrameProcessor
    let transport: WebSocketServer
    /// Every part with a life of its own, in the order they start (they stop in reverse).
    private let services: ServiceList

    /// Checks the TLS files, opens the source and builds everything (errors surface here: the
    /// TLS files — first, so that a wrong path does not wait for a slow source —, the source,
    /// the library folders, the JPEG encoder); `start()` listens and runs.
    public init(configuration: ServerConfiguration) throws {
        self.configuration = configuration
        try configuration.tls?.check()
        // The sound goes with the pictures when this FFmpeg can encode Opus — at the speed it was
        // made: played faster or slower it would need time-stretching, which nothing here does.
        let speed = configuration.playback.speed
        if speed != 1 { Log.info("no sound at --speed \(speed): the pictures play alone") }
        let audioQueue = AudioPipeline.isAvailable && speed == 1 ? AudioPacketQueue() : nil
        let (player, options) = try Self.openPlayer(configuration, audio: audioQueue)
        let info = player.info
        let wake = NetworkWake()
        let recorder = Recorder(width: info.width, height: info.height, frameRate: info.frameRate,
                                options: configuration.recording) { status in
            wake.recordingEnded(status.error ?? "the recording stopped")
        }
        let publisher = configuration.publish.map { target in
            Publisher(target: target, width: info.width, height: info.height, frameRate: info.frameRate,
                      onChange: Self.logPublishing)
        }
        session = Session(player: player, input: configuration.input, filter: configuration.filter,
                          catalog: configuration.catalog, recorder: recorder, publisher: publisher,
                          library: try MediaLibrary(recordingsPath: configuration.recording.directory,
                                                    mediaPath: configuration.mediaDirectory,
                                                    uploadsPath: configuration.uploadsDirectory),
                          inputOpener: configuration.input.opener(options, width: info.width, height: info.height),
                          urlSources: configuration.allowedSources.isEmpty ? nil : URLSources(patterns: configuration.allowedSources) { url in
                              InputSpec.file(url).opener(options, width: info.width, height: info.height)
                          },
                          ingestLimits: configuration.ingestLimits)
        let counters = ProcessingCounters()
        viewers = try Self.makeViewerOutputs(configuration, info: info, session: session, counters: counters,
                                             audio: audioQueue, wake: { wake.ring() })
        if let publisher, let encode = try Self.sharedEncode(configuration.publishRendition, option: "--publish-rendition",
                                                             of: viewers, size: (publisher.width, publisher.height)) {
            publisher.share(encode)
        }
        if let sound = viewers.audio?.pipeline {
            recorder.recordSound(from: sound)
            publisher?.publishSound(from: sound)
        }
        if let encode = try Self.sharedEncode(configuration.recordRendition, option: "--record-rendition", of: viewers,
                                               size: (info.width, info.height)) {
            recorder.share(encode)
        }
        let outputs: [any FrameOutput] = viewers.all + [recorder] + (publisher.map { [$0] } ?? [])
        processor = FrameProcessor(player: player, selection: session.selection, catalog: session.catalog, outputs: outputs,
                                   rerender: session.rerender, counters: counters, filterThreads: configuration.filterThreads,
                                   offlineReason: { [session] in session.offlineReason($0) })
        let transportCounters = TransportCounters()
        let metrics = Self.makeMetrics(player: player, processing: counters, transport: transportCounters,
                                       viewers: viewers, recorder: recorder, publisher: publisher, session: session)
        let core = ServerCore(configuration: configuration, session: session, outputs: viewers, counters: transportCounters,
                              metrics: metrics, files: try StaticFiles(root: configuration.webRoot), wake: wake)
        transport = WebSocketServer(configuration: configuration, core: core, wake: wake)
        services = ServiceList(Self.services(configuration, session: session, viewers: viewers, processor: processor,
                                             transport: transport))
    }

    /// The port the server listens on (useful with `port: 0`).
    public var port: Int { transport.port }

    /// What plays now: its name and frame size.
    public var source: SourceInfo { session.player.info }

    /// Starts every service in order: binds first (a port in use or an address this machine lacks
    /// fails here, before anything runs), then the sound, the decode thread, the publisher, `--record`,
    /// the processing loop, and serving.
    public func start() throws { try services.start() }

    /// Graceful shutdown within about a second, the services in reverse: close frames to every
    /// viewer, the processing loop, a recording (finished and saved), the encoders, the publisher,
    /// the decode thread, the sound, then lws is let go.
    public func stop() { services.stop() }

    /// The services of a server built of these parts, in the order they start.
    private static func services(_ configuration: ServerConfiguration, session: Session, viewers: ViewerOutputs,
                                 processor: FrameProcessor, transport: WebSocketServer) -> [Service] {
        let sound = viewers.audio?.pipeline
        return [
            Service("listener", start: transport.listen, stop: transport.release),
            Service("sound", start: { sound?.start() }, stop: { sound?.stop() }),
            Service("decode", start: session.player.start, stop: session.player.stop),
            Service("publisher", start: { session.publisher?.start() }, stop: { session.publisher?.stop() }),
            Service("h264", start: {}, stop: { viewers.h264.values.forEach { $0.finish() } }),
            Service("recording", start: { if configuration.recordAtStart { try session.record(start: true, filtered: true) } },
                    stop: { _ = try? session.record(start: false, filtered: false) }),
            Service("processing", start: processor.start, stop: processor.stop),
            Service("network", start: transport.serve, stop: transport.closeConnections),
        ]
    }

    /// The source, opened as configured, in a player (not started) that passes its sound to
    /// `audio`, and the options it was opened with.
    private static func openPlayer(_ configuration: ServerConfiguration, audio: AudioPacketQueue?) throws -> (Player, SourceOptions) {
        var options = SourceOptions()
        options.outputSize = configuration.outputSize
        options.stallTimeout = configuration.stallTimeout
        options.openTimeout = configuration.openTimeout
        options.cameraFormat = configuration.cameraFormat
        options.cameraRate = configuration.maxFPS
        let source = try configuration.input.open(options)
        source.onWarning = { Log.warning($0) }
        if case .testPattern = configuration.input {} else if source.info.isLive {
            // What a camera or stream actually delivers, which may differ from what was asked.
            Log.info("source opened", ["source": .string(source.info.name), "delivers": .string(source.info.delivered)])
        }
        let player = Player(source: source, options: configuration.playback,
                            reopen: configuration.input.reopener(options, width: source.info.width, height: source.info.height),
                            audio: audio)
        return (player, options)
    }
}
