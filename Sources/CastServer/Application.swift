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
        let wake = WakeSignal()
        let recorder = Recorder(width: info.width, height: info.height, frameRate: info.frameRate,
                                options: configuration.recording) { status in
            wake.transport?.recordingEnded(status.error ?? "the recording stopped")
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
                          })
        let counters = ProcessingCounters()
        viewers = try Self.makeViewerOutputs(configuration, info: info, session: session, counters: counters,
                                             audio: audioQueue, wake: { wake.transport?.wake() })
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
        transport = try WebSocketServer(configuration: configuration, session: session, outputs: viewers,
                                        counters: transportCounters, metrics: metrics)
        wake.transport = transport
    }

    /// The port the server listens on (useful with `port: 0`).
    public var port: Int { transport.port }

    /// What plays now: its name and frame size.
    public var source: SourceInfo { session.player.info }

    /// Binds (a port in use or an address this machine lacks fails here, before anything runs),
    /// then starts the publisher, the processing and decode threads, `--record`, and serving.
    public func start() throws {
        try transport.listen()
        viewers.audio?.pipeline.start()
        session.startParts()
        processor.start()
        if configuration.recordAtStart { try session.record(start: true, filtered: true) }
        transport.serve()
    }

    /// Graceful shutdown within about a second: close frames to every viewer, then the pipeline
    /// stops (a recording is finished and saved), then the transport lets go of lws.
    public func stop() {
        transport.closeConnections()
        processor.stop()
        viewers.h264.values.forEach { $0.finish() }
        session.stopParts()
        viewers.audio?.pipeline.stop()
        transport.release()
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

/// Carries the transport to the parts built before it (the recorder's end, the broadcaster's wake).
private final class WakeSignal: @unchecked Sendable {
    weak var transport: WebSocketServer?
}
