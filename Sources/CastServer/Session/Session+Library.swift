import CastProtocol
import Foundation
import Logging
import MediaKit

/// `record`, `open` and `delete`: the recorder and the library.
extension Session {
    /// The `recording` object of `state`.
    var recordingState: RecordingState {
        guard let status = recorder?.status else { return RecordingState() }
        return RecordingState(active: status.isActive, name: status.name, filtered: status.filtered,
                              elapsed: status.elapsed, bytes: status.bytes, droppedFrames: status.droppedFrames,
                              encoder: status.encoder, error: status.error)
    }

    /// Starts or stops recording; stopping when nothing records does nothing. While paused the
    /// held picture is recorded (the processor hands it over at once); refused after the source
    /// failed (nothing would be recorded). A stop that finds no frame was recorded (no file
    /// kept) says so.
    func record(start: Bool, filtered: Bool) throws(ProtocolError) {
        guard let recorder else {
            throw ProtocolError(code: .recordingFailed, message: "this server does not record")
        }
        guard start else {
            let ended = recorder.stop()
            if let problem = lookLog.finish(droppedFrames: ended?.droppedFrames ?? 0) { log.warning("the recording's looks were not kept: \(problem)") }
            if let ended {
                if let error = ended.error {
                    throw ProtocolError(code: .recordingFailed, message: "\(ended.name ?? "the recording"): \(error)")
                }
                log.info("recording saved: \(ended.name ?? "")", ["seconds": .double((ended.elapsed * 10).rounded() / 10),
                                                                    "bytes": .int(Int(ended.bytes))])
            }
            return
        }
        let playback = player.playbackState
        if playback.error != nil {
            throw ProtocolError(code: .recordingFailed, message: "cannot record: the source failed (\(offlineReason(playback) ?? "")), "
                + "no frame would be recorded: open a file or go back to the input first")
        }
        do {
            let program = selection.chain
            let chain = program.links.map(\.name).filter { $0 != "none" }
            let status = try recorder.start(filtered: filtered, filter: chain.isEmpty ? nil : chain.joined(separator: " + "),
                                            size: (player.pool.width, player.pool.height))
            if filtered, let name = status.name { lookLog.start(name, in: recorder.options.directory, chain: program) }
            log.info("recording to \(recorder.options.directory)/\(status.name ?? "")",
                     ["encoder": .string(status.encoder ?? ""), "filtered": .bool(filtered)])
            // Paused, no frame comes: the processor hands the recorder the one it holds.
            rerender.request()
        } catch {
            throw ProtocolError(code: .recordingFailed, message: error.description)
        }
    }

    /// What `open` names to go back to the input the server was started with.
    static let startInputReference = "input"

    /// Plays the library file `reference` (or with ``startInputReference`` the start input)
    /// instead of the current source. Its frames are its own size (``largestFrame``) or scaled to
    /// the session's; the filter stays, position and duration become the file's — unless
    /// `asRecorded`: then no filter, and the chain set aside until the start input plays again.
    func open(_ reference: String, asRecorded: Bool = false) throws(ProtocolError) {
        if reference == Self.startInputReference { return try returnToInput() }
        if reference.contains("://") { return try openURL(reference) }
        guard let library else { throw ProtocolError(code: .forbidden, message: "this server has no library") }
        let (path, _) = try library.resolve(reference)
        let canonical = Self.canonical(reference)
        let source: any VideoSource
        do {
            source = try InputSpec.file(path).open(fileOptions)
            source.onWarning = { [log] in log.warning($0) }
            endSharingForAnotherSource()
            try player.switchSource(to: source)
        } catch {
            // Clients see the name they gave, not the server's path.
            throw ProtocolError(code: .openFailed, message: error.description.replacingOccurrences(of: path, with: reference))
        }
        let info = source.info
        sourceState.withLock {
            $0 = SourceState(kind: .file, name: canonical, seekable: !info.isLive, width: info.width,
                             height: info.height, fps: info.frameRate, startInput: false, reference: canonical,
                             audio: Self.wireAudio(info.audio))
        }
        if asRecorded { playWithoutFilter() }
        transportGeneration.add(1, ordering: .relaxed)
    }

    /// No filter on the program, its chain set aside (the first one set aside is kept: a second
    /// recording played as recorded must not set aside "none").
    private func playWithoutFilter() {
        let aside = chainAside.withLock { $0 } ?? selection.chain
        select(.none, to: .program)
        if !aside.links.isEmpty { chainAside.withLock { $0 = aside } }
    }

    /// Plays the stream at `url`, when `--allow-source` allows it: opened on the decode thread
    /// (a stream may take seconds to answer), so that a failure shows as the source's (offline
    /// with the reason, retried as a live input is). Viewers see it without credentials or query.
    private func openURL(_ url: String) throws(ProtocolError) {
        guard let urlSources, urlSources.allow(url) else {
            let allowed = urlSources.map { "; --allow-source allows " + $0.patterns.map(\.description).joined(separator: ", ") }
            throw ProtocolError(code: .forbidden, message: "\(URLSources.shown(url)) is not a source this server may open"
                + (allowed ?? ": it opens no URLs (--allow-source PATTERN lets it)"))
        }
        let shown = URLSources.shown(url)
        let size = (width: player.pool.width, height: player.pool.height)
        let opener = urlSources.opener(url)
        let interruption = Interruption(), log = log
        endSharingForAnotherSource()
        player.switchSource(opening: { () throws(MediaError) in
            let source = try opener(interruption)
            source.onWarning = { log.warning($0.replacingOccurrences(of: url, with: shown)) }
            return source
        }, info: .opening(shown, width: size.width, height: size.height), interruption: interruption)
        sourceState.withLock {
            $0 = SourceState(kind: .stream, name: shown, seekable: false, width: size.width, height: size.height,
                             fps: nil, startInput: false, reference: shown)
        }
        transportGeneration.add(1, ordering: .relaxed)
        log.info("opening \(shown)")
    }

    /// Plays the input the server was started with again, from any state: opened anew on the
    /// decode thread (a stream or a camera may take seconds to answer), so that a failure shows
    /// as the source's (offline with the reason; a live input retries). A live start input that
    /// is already the source is left to go on (it reconnects by itself); a file starts over.
    func returnToInput() throws(ProtocolError) {
        guard let inputOpener else {
            throw ProtocolError(code: .openFailed, message: "this server cannot open its input again")
        }
        let current = sourceState.withLock { $0 }
        if current.startInput && !startSource.seekable { return }
        endSharingForAnotherSource()
        switchToInput(opening: inputOpener)
    }

    /// Plays the start input again, with the chain set aside while a recording played as recorded.
    func switchToInput(opening inputOpener: @escaping InputOpener) {
        if let aside = chainAside.withLock({ $0 }) { select(aside, to: .program) }
        // A new one: the start input's first was interrupted when another source replaced it.
        let interruption = Interruption(), log = log
        player.switchSource(opening: { () throws(MediaError) in
            let source = try inputOpener(interruption)
            source.onWarning = { log.warning($0) }
            return source
        }, info: startInfo, interruption: interruption)
        sourceState.withLock { $0 = startSource }
        transportGeneration.add(1, ordering: .relaxed)
    }

    /// Deletes the recording `reference` names; not the one being recorded. Deleting the file
    /// that plays goes back to the start input.
    func delete(_ reference: String) throws(ProtocolError) {
        guard let library else { throw ProtocolError(code: .forbidden, message: "this server has no library") }
        let (path, _) = try library.resolve(reference)
        if let recorder, recorder.status.isActive, let name = recorder.status.name,
           path == library.recordings.root + "/" + name {
            throw ProtocolError(code: .forbidden, message: "\(reference) is being recorded: stop the recording first")
        }
        try library.delete(reference)
        let playsIt = sourceState.withLock { $0.kind == .file && !$0.startInput && $0.reference == Self.canonical(reference) }
        if playsIt, let inputOpener { switchToInput(opening: inputOpener) }
    }

    /// The same file however it was named (`media//a.mp4` is `media/a.mp4`): the reference the
    /// state gives, which the Sources panel marks.
    static func canonical(_ reference: String) -> String {
        (ContainedFolder.components(of: reference) ?? []).joined(separator: "/")
    }
}
