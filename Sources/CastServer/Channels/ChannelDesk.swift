import FilterKit
import MediaKit
import Synchronization

/// The one owner of every channel's services, whatever brought the channel: the start channels
/// (`--input`, `--channel`, the channels file) started with the server (``start(_:recordAtStart:)``),
/// and the channels added and removed while it runs (`PUT`/`DELETE /api/channels/NAME`), whose
/// inputs are opened, and whose services are started and stopped, on threads of their own — an
/// open takes up to `--open-timeout`, a stop finishes a recording — never on the network thread,
/// which learns of each result at a wake-up (``takeFinished()``). Removing a channel stops it the
/// same way whichever it is, and the server's stop stops every channel, each on its own thread
/// (``stopAll()``), so that many channels stop in the time of the slowest.
///
/// Threads: `start` and `stopAll` on the thread that starts and stops the server (`stopAll` after
/// the network thread ended); `open`, `remove` and `takeFinished` on the network thread; the
/// workers post results and ring `wake`.
package final class ChannelDesk: Sendable {
    /// Builds `channel` (opening its input): what a worker thread runs.
    package typealias Opener = @Sendable (_ channel: ChannelInput) throws -> Channel

    /// What a worker left for the network thread.
    enum Finished {
        /// Channel `name`, asked for by connection `connection`, runs — or could not be opened (the reason).
        case opened(connection: Int, name: ChannelName, Result<Channel, OpenFailure>)
        /// Channel `name`, removed by connection `connection`, has stopped (its recording finished).
        case removed(connection: Int, name: ChannelName)
    }

    /// Why an input could not become a channel.
    struct OpenFailure: Error {
        let message: String
    }

    private struct State {
        /// The services of every channel running, by name.
        var running: [ChannelName: ServiceList] = [:]
        /// Results by the id of the worker that posted it.
        var finished: [(worker: Int, Finished)] = []
        var workers: [Int: WorkerThread] = [:]
        /// The ids of the workers that stop a removed channel: the server's stop waits for them.
        var removing: Set<Int> = []
        var nextWorker = 0
        /// The server stops: a channel opened after this is stopped at once, never added.
        var closed = false
    }

    private let state = Mutex(State())
    private let opener: Opener
    private let wake: NetworkWake

    init(wake: NetworkWake, opener: @escaping Opener) {
        self.wake = wake
        self.opener = opener
    }

    /// Starts the server's start channels, in order (the default one first; with `recordAtStart`
    /// it records from the start). When one fails, those started are stopped and its error thrown.
    package func start(_ channels: [Channel], recordAtStart: Bool) throws {
        for channel in channels {
            let services = ServiceList(channel.services(recordAtStart: recordAtStart))
            do {
                try services.start()
            } catch {
                stopAll()
                throw error
            }
            state.withLock { $0.running[channel.name] = services }
        }
    }

    /// Opens `channel` on a thread of its own, then starts its services.
    func open(_ channel: ChannelInput, for connection: Int) {
        let name = channel.name
        let id = state.withLock { state in
            state.nextWorker += 1
            return state.nextWorker
        }
        let worker = WorkerThread(name: "channel-open") { [self] in
            let result: Result<Channel, OpenFailure>
            do {
                let opened = try opener(channel)
                let services = ServiceList(opened.services(recordAtStart: false))
                try services.start()
                result = state.withLock { state in
                    guard !state.closed else { return .failure(OpenFailure(message: "the server is stopping")) }
                    state.running[name] = services
                    return .success(opened)
                }
                if case .failure = result { services.stop() }
            } catch {
                result = .failure(OpenFailure(message: "\(error)"))
            }
            post(.opened(connection: connection, name: name, result), from: id)
        }
        state.withLock { $0.workers[id] = worker }
    }

    /// Stops channel `name` on a thread of its own: its processing, its recording (finished and
    /// kept), its encoders, its decode thread.
    func remove(_ name: ChannelName, for connection: Int) {
        let (services, id) = state.withLock { state in
            state.nextWorker += 1
            state.removing.insert(state.nextWorker)
            return (state.running.removeValue(forKey: name), state.nextWorker)
        }
        let worker = WorkerThread(name: "channel-stop") { [self] in
            services?.stop()
            post(.removed(connection: connection, name: name), from: id)
        }
        state.withLock { $0.workers[id] = worker }
    }

    /// What the workers finished since the last call, their threads joined (they end as they
    /// post: the join does not wait). Network thread.
    func takeFinished() -> [Finished] {
        let (finished, workers) = state.withLock { state in
            defer { state.finished.removeAll() }
            state.removing.subtract(state.finished.map(\.worker))
            return (state.finished, state.finished.compactMap { state.workers.removeValue(forKey: $0.worker) })
        }
        workers.forEach { $0.join() }
        return finished.map(\.1)
    }

    /// Waits until every worker started so far has posted its result (tests).
    func waitForWorkers() {
        let workers = state.withLock { state in
            defer { state.workers.removeAll(); state.removing.removeAll() }
            return Array(state.workers.values)
        }
        workers.forEach { $0.join() }
    }

    /// The server stops: every channel stops (a recording finished and kept), each on a thread of
    /// its own, and this waits for them and for the removals under way; one still opening is
    /// stopped when its open ends (up to `--open-timeout`), without waiting for it here.
    package func stopAll() {
        let (running, removals) = state.withLock { state in
            state.closed = true
            defer { state.running.removeAll(); state.removing.removeAll() }
            return (state.running, state.removing.compactMap { state.workers.removeValue(forKey: $0) })
        }
        let stops = running.map { name, services in WorkerThread(name: "stop \(name)") { services.stop() } }
        (stops + removals).forEach { $0.join() }
    }

    private func post(_ finished: Finished, from worker: Int) {
        state.withLock { $0.finished.append((worker, finished)) }
        wake.ring()
    }
}
