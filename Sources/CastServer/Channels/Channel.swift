import CastProtocol
import FilterKit
import Foundation
import Logging
import MediaKit
import Telemetry

/// One channel of the server, complete by construction: its source in a `Player`, the `Session`
/// that owns it (filter chain, play/pause/seek, sharing, open/delete of library files), its
/// outputs (the ladder of renditions and the sound), the `FrameProcessor` that feeds them, its
/// `Recorder` and its `Publisher` (the default channel's; every channel's when `--publish` has
/// `{channel}`). Nothing is shared between two
/// channels but the `NetworkWake` and what the server offers all of them (the filter catalog,
/// the media and uploads folders): one channel never sees another's commands, frames or state.
///
/// Recordings: the default channel records into `--recordings` itself (as a server of one
/// channel always did, so its recordings and `/recordings/NAME` links stay where they were);
/// every other channel into `RECORDINGS/NAME/`.
///
/// Threads: built and started on the thread that runs `filtercast serve`; then its parts keep
/// their own threads (decode, process, h264, audio, record, publish).
public final class Channel: Sendable {
    public let name: ChannelName
    /// What `/ws` and the HTTP routes serve without `?channel=`.
    public let isDefault: Bool
    public let session: Session
    package let outputs: ViewerOutputs
    let processor: FrameProcessor
    let counters: ProcessingCounters
    /// The Looks panel's thumbnails of its picture (nil: the server keeps no looks).
    let thumbnails: LookThumbnails?
    /// Its `/ws` viewers now (`filtercast_channel_viewers`), set by the network thread.
    let viewerCount = Gauge()
    /// Its own control token (`"token"` in the channels file or the `PUT` body): it controls this
    /// channel only (``AccessPolicy/on(_:)``); nil: the server's tokens alone.
    let token: AccessToken?
    /// What every line about it carries: `channel=NAME`.
    var log: LogScope { session.log }

    /// Opens `input` and builds channel `name` of a server configured by `configuration`; the
    /// source's errors (it cannot be opened, within `--open-timeout`), the library folders' and
    /// the encoders' surface here. Its recordings that stop by themselves are left at `wake`.
    package convenience init(name: ChannelName, input: InputSpec, isDefault: Bool, configuration: ServerConfiguration,
                     wake: NetworkWake) throws {
        // The sound goes with the pictures when this FFmpeg can encode Opus — at the speed it was
        // made: played faster or slower it would need time-stretching, which nothing here does.
        let speed = configuration.playback.speed
        let audioQueue = AudioPipeline.isAvailable && speed == 1 ? AudioPacketQueue() : nil
        let log = LogScope(["channel": .string(name.description)])
        let (player, options) = try Self.openPlayer(input, configuration, keepOpen: configuration.alwaysOn.contains(name),
                                                    audio: audioQueue, log: log)
        let info = player.info
        var recording = configuration.recording
        if !isDefault { recording.directory += "/\(name)" }
        let lookLog = RecordingLookLog()
        let recorder = Recorder(width: info.width, height: info.height, frameRate: info.frameRate, options: recording) { status in
            if let problem = lookLog.finish(name: status.name, droppedFrames: status.droppedFrames) { log.warning("the recording's looks were not kept: \(problem)") }
            wake.recordingEnded(status.error ?? "the recording stopped", channel: name)
        }
        let publisher = try configuration.publish.flatMap { target throws(MediaError) in
            isDefault || target.isPerChannel
                ? Publisher(target: try target.forChannel(name.description), width: info.width, height: info.height,
                            frameRate: info.frameRate, onChange: { Channel.logPublishing($0, log: log) })
                : nil
        }
        let session = Session(player: player, input: input, filter: configuration.filter, catalog: configuration.catalog,
                          recorder: recorder, publisher: publisher,
                          library: try MediaLibrary(recordingsPath: recording.directory, mediaPath: configuration.mediaDirectory,
                                                    uploadsPath: configuration.uploadsDirectory),
                          inputOpener: input.opener(options),
                          urlSources: configuration.allowedSources.isEmpty ? nil : URLSources(patterns: configuration.allowedSources) { url in
                              InputSpec.file(url).opener(options)
                          },
                          ingestLimits: configuration.ingestLimits, lookLog: lookLog,
                          largestFrame: configuration.outputSize == nil ? Self.largestFrame(startingAt: info) : nil,
                          stepCache: options.stepCache)
        let counters = ProcessingCounters()
        let outputs = try Channel.makeViewerOutputs(configuration, info: info, session: session, counters: counters,
                                                        audio: audioQueue, wake: { wake.ring() })
        try Self.shareEncodes(configuration, outputs: outputs, recorder: recorder, publisher: publisher, size: (info.width, info.height))
        let thumbnails = configuration.looks == nil ? nil
            : LookThumbnails(source: (info.width, info.height), catalog: configuration.catalog, rerender: session.rerender)
        let outputList: [any FrameOutput] = outputs.all + [recorder] + (publisher.map { [$0] } ?? []) + (thumbnails.map { [$0] } ?? [])
        let processor = FrameProcessor(player: player, selection: session.selection, studio: session.studio, catalog: session.catalog,
                                       outputs: outputList,
                                       rerender: session.rerender, counters: counters, filterThreads: configuration.filterThreads,
                                       offlineReason: { [session] in session.offlineReason($0) },
                                       sourceSize: { [sizes = outputs.sizes] in sizes.sourceIs(width: $0, height: $1) })
        self.init(name: name, isDefault: isDefault, session: session, outputs: outputs, processor: processor, counters: counters,
                  token: AccessToken(configuration.channelTokens[name]), thumbnails: thumbnails)
    }

    /// A channel of these parts: `processor` feeds `outputs` (and `session`'s recorder and
    /// publisher, and `thumbnails`) from `session`'s player, counting in `counters`; `token` controls it.
    init(name: ChannelName, isDefault: Bool, session: Session, outputs: ViewerOutputs, processor: FrameProcessor,
         counters: ProcessingCounters, token: AccessToken? = nil, thumbnails: LookThumbnails? = nil) {
        self.name = name
        self.thumbnails = thumbnails
        self.token = token
        self.isDefault = isDefault
        self.session = session
        self.outputs = outputs
        self.processor = processor
        self.counters = counters
    }

    /// Its services, in the order they start (they stop in reverse): the sound, the decode
    /// thread, the publisher, the H.264 encoders, `--record` (the default channel's), the
    /// processing loop.
    func services(recordAtStart: Bool) -> [Service] {
        let sound = outputs.audio?.pipeline
        let session = session, outputs = outputs, processor = processor
        let records = recordAtStart && isDefault
        return [
            Service("\(name) sound", start: { sound?.start() }, stop: { sound?.stop() }),
            Service("\(name) decode", start: session.player.start, stop: session.player.stop),
            Service("\(name) publisher", start: { session.publisher?.start() }, stop: { session.publisher?.stop() }),
            Service("\(name) h264", start: {}, stop: { outputs.h264.values.forEach { $0.finish() } }),
            Service("\(name) recording", start: { if records { try session.record(start: true, filtered: true) } },
                    stop: { _ = try? session.record(start: false, filtered: false) }),
            Service("\(name) processing", start: processor.start, stop: processor.stop),
        ]
    }

    /// One encode serves all: the publisher and filtered recordings take the H.264 rendition
    /// `--publish-rendition` and `--record-rendition` name, and both the sound.
    private static func shareEncodes(_ configuration: ServerConfiguration, outputs: ViewerOutputs, recorder: Recorder,
                                     publisher: Publisher?, size: (width: Int, height: Int)) throws {
        if let publisher, let encode = try Channel.sharedEncode(configuration.publishRendition, option: "--publish-rendition",
                                                                    of: outputs, size: (publisher.width, publisher.height)) {
            publisher.share(encode)
        }
        if let sound = outputs.audio?.pipeline {
            recorder.recordSound(from: sound)
            publisher?.publishSound(from: sound)
        }
        if let encode = try Channel.sharedEncode(configuration.recordRendition, option: "--record-rendition", of: outputs,
                                                      size: size) {
            recorder.share(encode)
        }
    }

    /// The largest frames a channel without `--size` gives what it plays (larger sources are
    /// reduced): 1920x1080's pixels, or its start input's when that has more.
    static func largestFrame(startingAt start: SourceInfo) -> (width: Int, height: Int) {
        start.width * start.height > 1920 * 1080 ? (start.width, start.height) : (1920, 1080)
    }

    /// `input`, opened as configured, in a player (not started) that passes its sound to
    /// `audio`, and the options to open it and other sources with: at `--size`, else at their own
    /// size (at most ``largestFrame(startingAt:)``'s pixels) — the session takes the size of what
    /// plays. A live input is closed while nobody watches (`--idle-close`) unless `keepOpen`
    /// (`--always-on`).
    private static func openPlayer(_ input: InputSpec, _ configuration: ServerConfiguration, keepOpen: Bool,
                                   audio: AudioPacketQueue?, log: LogScope) throws -> (Player, SourceOptions) {
        var options = SourceOptions()
        options.outputSize = configuration.outputSize
        options.stallTimeout = configuration.stallTimeout
        options.openTimeout = configuration.openTimeout
        options.stepCache = StepCacheBudget(capacityBytes: configuration.stepCacheBytes)
        options.cameraFormat = configuration.cameraFormat
        options.cameraRate = configuration.maxFPS
        let source = try input.open(options)
        source.onWarning = { log.warning($0) }
        if case .testPattern = input {} else if source.info.isLive {
            // What a camera or stream actually delivers, which may differ from what was asked.
            log.info("source opened", ["source": .string(source.info.name), "delivers": .string(source.info.delivered)])
        }
        var playback = configuration.playback
        if keepOpen { playback.idleClose = nil }
        if configuration.outputSize == nil {
            let largest = largestFrame(startingAt: source.info)
            options.maximumPixels = largest.width * largest.height
            playback.sizeFollowsSource = true
        }
        let player = Player(source: source, options: playback, reopen: input.reopener(options),
                            audio: audio, log: log)
        return (player, options)
    }
}
