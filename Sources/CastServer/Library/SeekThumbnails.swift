import Foundation
import Logging
import MediaKit
import Synchronization

/// The seek bar's thumbnails of the files channels play (`GET /api/thumbnails`): one JPEG sprite
/// per file (``ThumbnailSprite``) and its index (``ThumbnailIndex``), kept in ``folder`` as
/// `KEY.jpg` and `KEY.json` (KEY: a hash of the file's path, ``key(of:)``), made again when the
/// file changes (its ``FileIdentity`` fingerprint differs from the index's).
///
/// Asked on the network thread (``answer(for:)``: one `stat`, no other disk access); made on one
/// worker thread of the lowest priority (nice 19), started at the first request, one file at a
/// time: never more than ``queueLimit`` files wait (a request beyond is told to come back), and
/// what is remembered in memory is bounded (``memoryLimit``), as are the files kept on disk
/// (``diskLimit`` sprites, the oldest removed first). ``stop()`` interrupts a sprite being made
/// and joins the worker.
package final class SeekThumbnails: Sendable {
    static let queueLimit = 4
    static let memoryLimit = 64
    static let diskLimit = 200
    static let temporaryPrefix = ".thumbnails-"

    /// What `GET /api/thumbnails` answers for a file.
    enum Answer: Equatable {
        /// Made: the sprite is `folder/KEY.jpg`.
        case ready(key: String, ThumbnailIndex)
        /// Being made, or waiting its turn: ask again later.
        case making
        /// ``queueLimit`` files wait already: ask again later.
        case busy
        /// Not a file on this server's disk (a URL that can seek).
        case notAFile
        /// It could not be made: why.
        case failed(String)
    }

    /// A file to make thumbnails of.
    struct Job: Sendable, Equatable {
        let path: String
        let key: String
        let fingerprint: String
    }

    private enum Known: Sendable {
        case ready(ThumbnailIndex)
        case failed(fingerprint: String, reason: String)
    }

    private struct State: Sendable {
        var known: [String: Known] = [:]
        /// The keys of `known`, oldest first.
        var order: [String] = []
        /// Jobs waiting or being made.
        var pending: [Job] = []
        var stopped = false
    }

    let folder: String
    private let state = Mutex(State())
    private let jobs = HandoffQueue<Job>(capacity: queueLimit, policy: .blocking)
    private let interruption = Interruption()
    private let worker = Mutex<WorkerThread?>(nil)

    /// Thumbnails kept in `folder` (made when first written).
    init(folder: String) {
        self.folder = folder
    }

    /// The name of `path`'s sprite and index in ``folder``.
    static func key(of path: String) -> String { FNV1a.hex(of: path) }

    /// The thumbnails of the file at `path` now: made (in memory), else queued for the worker
    /// (which takes an index already on disk, or makes the sprite). Network thread.
    func answer(for path: String) -> Answer {
        guard let identity = FileIdentity(path: path) else { return .notAFile }
        let job = Job(path: path, key: Self.key(of: path), fingerprint: identity.fingerprint)
        let answer = state.withLock { state -> Answer? in
            switch state.known[job.key] {
            case .ready(let index) where index.fingerprint == job.fingerprint: return .ready(key: job.key, index)
            case .failed(let fingerprint, let reason) where fingerprint == job.fingerprint: return .failed(reason)
            default: break
            }
            if state.pending.contains(job) { return .making }
            guard !state.stopped, state.pending.count < Self.queueLimit else { return .busy }
            state.pending.append(job)
            return nil
        }
        if let answer { return answer }
        startWorker()
        jobs.put(job)  // never waits: at most queueLimit are pending
        return .making
    }

    /// The sprite at `name` (`KEY-FINGERPRINT.jpg`) when it is the one made for `path`; nil else.
    func sprite(named name: String, of path: String) -> String? {
        let key = Self.key(of: path)
        let known = state.withLock { $0.known[key] }
        guard case .ready(let index) = known, name == "\(key)-\(index.fingerprint).jpg" else { return nil }
        return folder + "/" + key + ".jpg"
    }

    /// Interrupts a sprite being made, and joins the worker (once: a second stop has none to
    /// join, and no worker starts after it). Any thread but the worker's.
    package func stop() {
        state.withLock { $0.stopped = true }
        interruption.interrupt()
        jobs.close()
        worker.withLock { worker in
            defer { worker = nil }
            return worker
        }?.join()
    }

    /// Starts the worker unless it runs or the cache is stopped (checked under the worker's lock,
    /// which ``stop()`` takes after saying so: a worker started is one it joins).
    private func startWorker() {
        worker.withLock { worker in
            guard worker == nil, !state.withLock({ $0.stopped }) else { return }
            worker = WorkerThread(name: "thumbnails") { [self] in work() }
        }
    }

    /// The worker: lowers its priority, then makes the sprites asked for until ``stop()``.
    private func work() {
        // PRIO_PROCESS with 0 is the calling thread on Linux (the nice value is a thread's).
        if setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19) != 0 {
            Log.warning("thumbnails: the worker keeps the normal priority (setpriority: errno \(errno))")
        }
        while let job = jobs.take(), !state.withLock({ $0.stopped }) {
            let known = make(job)
            state.withLock { state in
                state.pending.removeAll { $0 == job }
                state.known[job.key] = known
                state.order.removeAll { $0 == job.key }
                state.order.append(job.key)
                while state.order.count > Self.memoryLimit { state.known[state.order.removeFirst()] = nil }
            }
        }
    }

    /// `job`'s index: the one on disk when it is of this version of the file, else made now.
    private func make(_ job: Job) -> Known {
        if let index = ThumbnailIndex.read(folder + "/" + job.key + ".json"), index.fingerprint == job.fingerprint,
           FileManager.default.fileExists(atPath: folder + "/" + job.key + ".jpg") {
            return .ready(index)
        }
        let started = ContinuousClock.now
        do throws(MediaError) {
            let (layout, jpeg) = try ThumbnailSprite.make(path: job.path, interruption: interruption)
            let index = ThumbnailIndex(fingerprint: job.fingerprint, layout: layout)
            if let problem = store(jpeg, index, key: job.key) { return .failed(fingerprint: job.fingerprint, reason: problem) }
            Log.info("thumbnails: \(layout.count) of \(job.path) made in \(started.duration(to: .now).secondsText) s",
                     ["bytes": .int(jpeg.count)])
            return .ready(index)
        } catch {
            if !interruption.isRequested { Log.warning("thumbnails: \(error)") }
            return .failed(fingerprint: job.fingerprint, reason: error.description.replacingOccurrences(of: job.path, with: "the file"))
        }
    }

    /// Writes the sprite, then its index (whose presence says the sprite is whole), and removes
    /// the oldest beyond ``diskLimit``; nil, or what went wrong.
    private func store(_ jpeg: [UInt8], _ index: ThumbnailIndex, key: String) -> String? {
        let problem = AtomicFile.write(jpeg, folder: folder, name: key + ".jpg", temporaryPrefix: Self.temporaryPrefix, replacing: true)
            ?? AtomicFile.write(JSONBody.encoded(index), folder: folder, name: key + ".json", temporaryPrefix: Self.temporaryPrefix,
                                replacing: true)
        if problem == nil { prune() }
        return problem
    }

    /// Removes the oldest indexes and sprites beyond ``diskLimit``.
    private func prune() {
        guard case .success(let names) = AtomicFile.prepare(folder, temporaryPrefix: Self.temporaryPrefix, suffix: ".json"),
              names.count > Self.diskLimit else { return }
        let dated = names.map { name -> (String, Date) in
            let date = (try? FileManager.default.attributesOfItem(atPath: folder + "/" + name)[.modificationDate]) as? Date
            return (name, date ?? .distantPast)
        }
        for (name, _) in dated.sorted(by: { $0.1 < $1.1 }).prefix(names.count - Self.diskLimit) {
            unlink(folder + "/" + name)
            unlink(folder + "/" + name.dropLast(".json".count) + ".jpg")
        }
    }
}

/// What ``SeekThumbnails`` keeps beside a sprite (`KEY.json`): which version of the file it
/// shows (``FileIdentity/fingerprint``) and where its thumbnails are.
struct ThumbnailIndex: Codable, Equatable, Sendable {
    let fingerprint: String
    let layout: ThumbnailLayout

    /// The index at `path`; nil when there is none or it is not one (or larger than one can be).
    static func read(_ path: String) -> ThumbnailIndex? {
        guard let data = FileManager.default.contents(atPath: path), data.count < 64 << 10 else { return nil }
        return try? JSONDecoder().decode(ThumbnailIndex.self, from: data)
    }
}
