import MediaKit
import Telemetry

/// The server's `/metrics` series, registered as channels come and go.
package enum ServerMetrics {
    /// The registry of every component's metrics, in the order `/metrics` lists them: the
    /// transport's (over every channel) and each channel's (``register(_:in:)``).
    package static func make(channels: [Channel], transport: TransportCounters, uploads: Bool) -> Metrics {
        let metrics = Metrics()
        metrics.register(transport.framesSent, name: "filtercast_frames_sent_total",
                         help: "Frames written to WebSocket viewers and MJPEG readers.")
        metrics.register(transport.droppedSlowClient, name: droppedName, help: droppedHelp, labels: ["reason": "slow_client"])
        metrics.register(transport.bytesSent, name: "filtercast_bytes_sent_total",
                         help: "Payload bytes written to clients: frames, MJPEG parts, messages, HTTP bodies.")
        metrics.register(transport.viewers, name: "filtercast_viewers", help: "WebSocket viewers connected.")
        metrics.register(transport.mjpegReaders, name: "filtercast_mjpeg_readers", help: "MJPEG readers connected.")
        let switches = "filtercast_rendition_switches_total"
        let switchesHelp = "Viewers moved by their delivery to a smaller (down) or larger (up) rendition of their transport."
        metrics.register(transport.switchesDown, name: switches, help: switchesHelp, labels: ["direction": "down"])
        metrics.register(transport.switchesUp, name: switches, help: switchesHelp, labels: ["direction": "up"])
        if channels.contains(where: { $0.outputs.audio != nil }) {
            metrics.register(transport.audioSent, name: "filtercast_audio_packets_sent_total",
                             help: "Sound packets written to the viewers that asked for sound (one per listener).")
            metrics.register(transport.audioSkipped, name: audioDroppedName, help: audioDroppedHelp, labels: ["reason": "slow_client"])
        }
        if uploads { transport.uploads.register(in: metrics) }
        for channel in channels { register(channel, in: metrics) }
        return metrics
    }

    static let stepCacheHelp = "Seeks and frame steps served from the pictures kept around the playhead (hit) or decoded (miss)."
    static let droppedName = "filtercast_frames_dropped_total"
    static let droppedHelp = "Frames dropped, by reason: superseded (a newer frame was decoded before this one was "
        + "processed), no_viewers (nobody watching: not encoded), max_fps (skipped for --max-fps), encode_failed, "
        + "slow_client (a client still busy with an earlier frame; counted per client), recording (left out of a "
        + "recording because its encoder fell behind), preview_late (a preview frame not made: the next source "
        + "frame already waited)."
    static let audioDroppedName = "filtercast_audio_dropped_total"
    static let audioDroppedHelp = "Sound packets dropped: behind (the audio thread had not taken the demuxed packets yet), "
        + "slow_client (a listener more than a second behind skipped them; counted per listener)."

    /// `channel`'s series: its stages', its renditions', its sound's and its publisher's, and
    /// `filtercast_channel_viewers`. The default channel's carry no `channel` label (a server of
    /// one channel scrapes as it always did); every other channel's carry `channel="NAME"` first,
    /// and leave with it (`metrics.remove(label: "channel", value: NAME)`). Any thread.
    static func register(_ channel: Channel, in metrics: Metrics) {
        let name = channel.name.description
        metrics.register(channel.viewerCount, name: "filtercast_channel_viewers",
                         help: "WebSocket viewers of each channel (every channel labelled, the default one too).",
                         labels: ["channel": name])
        let scope = channel.isDefault ? metrics.scoped() : metrics.scoped(["channel": name])
        let session = channel.session, player = session.player, processing = channel.counters
        scope.register(player.framesDecoded, name: "filtercast_frames_decoded_total",
                       help: "Frames decoded from the source (reads and seeks).")
        scope.register(processing.framesFiltered, name: "filtercast_frames_filtered_total",
                       help: "Frames the filter was applied to (once for all viewers).")
        scope.register(processing.framesEncoded, name: "filtercast_frames_encoded_total",
                       help: "Frames encoded to JPEG (once for all viewers).")
        scope.register(player.framesSuperseded, name: droppedName, help: droppedHelp, labels: ["reason": "superseded"])
        scope.register(processing.droppedNoViewers, name: droppedName, help: droppedHelp, labels: ["reason": "no_viewers"])
        scope.register(processing.droppedMaxFPS, name: droppedName, help: droppedHelp, labels: ["reason": "max_fps"])
        scope.register(processing.droppedEncodeFailed, name: droppedName, help: droppedHelp, labels: ["reason": "encode_failed"])
        scope.register(processing.droppedPreviewLate, name: droppedName, help: droppedHelp, labels: ["reason": "preview_late"])
        if let recorder = session.recorder {
            scope.register(recorder.framesDropped, name: droppedName, help: droppedHelp, labels: ["reason": "recording"])
        }
        scope.register(processing.filterTime, name: "filtercast_filter_seconds", help: "Time to filter one frame.")
        scope.register(processing.styleRefreshMillihertz, name: "filtercast_style_refresh_millihertz",
                       help: "How often the program's style network refreshed the style a second, in thousandths (-1: no style link measured).")
        scope.register(processing.encodeTime, name: "filtercast_encode_seconds", help: "Time to encode one frame to JPEG.")
        scope.register(session.stepCache.heldBytes, name: "filtercast_step_cache_bytes",
                       help: "Bytes of decoded pictures kept around the playhead for frame steps (--step-cache).")
        scope.register(session.stepCache.hits, name: "filtercast_step_cache_total", help: stepCacheHelp, labels: ["result": "hit"])
        scope.register(session.stepCache.misses, name: "filtercast_step_cache_total", help: stepCacheHelp, labels: ["result": "miss"])
        registerSession(session, in: scope)
        registerRenditions(channel.outputs, in: scope)
        if let audio = channel.outputs.audio { registerAudio(audio, in: scope) }
        if let publisher = session.publisher { registerPublishing(publisher, in: scope) }
    }

    /// The session's: what shared cameras sent, whether the source is online, whether it records.
    private static func registerSession(_ session: Session, in scope: MetricsScope) {
        scope.register(session.ingestCounters.pictures, name: "filtercast_ingest_pictures_total",
                       help: "Pictures received from a viewer's shared camera (share).")
        scope.register(session.ingestCounters.bytes, name: "filtercast_ingest_bytes_total",
                       help: "Bytes of the shared camera's picture and microphone messages.")
        scope.register(session.ingestCounters.soundPackets, name: "filtercast_ingest_sound_packets_total",
                       help: "Opus packets received from a shared camera's microphone (FCM1).")
        scope.register(session.ingestCounters.dropped, name: "filtercast_ingest_dropped_total",
                       help: "Shared camera pictures dropped (the decoder behind, or H.264 waiting for a keyframe).")
        scope.registerGauge(name: "filtercast_source_online", help: "1 while the source delivers frames, else 0.") {
            session.sourceOnline ? 1 : 0
        }
        scope.registerGauge(name: "filtercast_recording_active", help: "1 while the session records, else 0.") {
            session.recordingActive ? 1 : 0
        }
    }

    /// Per rendition (`rendition` label): viewers on it; for
    /// H.264 frames, bytes and keyframes encoded and the encode time (JPEG's are counted together
    /// above).
    private static func registerRenditions(_ viewers: ViewerOutputs, in metrics: MetricsScope) {
        let viewersName = "filtercast_rendition_viewers"
        let viewersHelp = "Clients on each rendition (JPEG: WebSocket viewers on it, MJPEG readers and waiting snapshots)."
        for index in viewers.jpeg.keys.sorted() {
            let stream = viewers.jpeg[index]!
            metrics.registerGauge(name: viewersName, help: viewersHelp, labels: ["rendition": stream.rendition.id]) {
                stream.audience.load(ordering: .relaxed)
            }
        }
        for index in viewers.h264.keys.sorted() {
            let stream = viewers.h264[index]!, counters = stream.counters
            let labels: KeyValuePairs<String, String> = ["rendition": stream.rendition.id]
            metrics.register(counters.viewers, name: viewersName, help: viewersHelp, labels: labels)
            metrics.register(counters.framesEncoded, name: "filtercast_rendition_frames_encoded_total",
                             help: "H.264 access units encoded for each rendition (once for all its viewers; refinements of a still included).",
                             labels: labels)
            metrics.register(counters.bytesEncoded, name: "filtercast_rendition_bytes_encoded_total",
                             help: "Bytes of H.264 encoded for each rendition.", labels: labels)
            metrics.register(counters.keyframes, name: "filtercast_rendition_keyframes_total",
                             help: "Keyframes among them (periodic, and forced for viewers joining: at most one a second).",
                             labels: labels)
            metrics.register(counters.encodeTime, name: "filtercast_rendition_encode_seconds",
                             help: "Time to encode one H.264 access unit.", labels: labels)
        }
    }

    /// The sound: Opus packets and bytes encoded (once for all listeners), and packets dropped
    /// because the audio thread had not taken the demuxed ones yet (`behind`).
    private static func registerAudio(_ audio: ViewerAudio, in metrics: MetricsScope) {
        let counters = [
            (audio.pipeline.packetsEncoded, "filtercast_audio_packets_total",
             "Opus packets (20 ms of sound) encoded from the source's sound, once for all listeners."),
            (audio.pipeline.bytesEncoded, "filtercast_audio_bytes_total", "Bytes of Opus encoded, once for all listeners."),
        ]
        for (counter, name, help) in counters { metrics.register(counter, name: name, help: help) }
        metrics.register(audio.pipeline.queue.packetsDropped, name: audioDroppedName, help: audioDroppedHelp,
                         labels: ["reason": "behind"])
    }

    /// `--publish`: connection state, frames, bytes, failures and dropped frames.
    private static func registerPublishing(_ publisher: Publisher, in metrics: MetricsScope) {
        let counters = publisher.counters
        metrics.register(counters.connected, name: "filtercast_publish_connected",
                         help: "1 while connected to the --publish media server, else 0 (connecting or retrying).")
        metrics.register(counters.frames, name: "filtercast_publish_frames_total",
                         help: "Frames encoded to H.264 and written to the --publish media server.")
        metrics.register(counters.bytes, name: "filtercast_publish_bytes_total",
                         help: "Bytes written to the --publish media server.")
        metrics.register(counters.failures, name: "filtercast_publish_failures_total",
                         help: "Connections to the --publish media server that failed to open or broke (each is retried).")
        metrics.register(counters.dropped, name: "filtercast_publish_dropped_frames_total",
                         help: "Frames not published because the encoder or the network had not taken the earlier ones yet.")
    }
}
