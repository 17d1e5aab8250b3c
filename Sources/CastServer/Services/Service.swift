/// A part of the server with a life of its own (a thread, a socket, an encoder): the
/// `Application` starts its services in order and stops them in the reverse order, so a part
/// stops only after everything started after it — everything that may use it — has stopped.
package struct Service {
    /// How the log and errors name it.
    let name: String
    let start: () throws -> Void
    let stop: () -> Void

    package init(_ name: String, start: @escaping () throws -> Void, stop: @escaping () -> Void) {
        self.name = name
        self.start = start
        self.stop = stop
    }
}

/// Services started in order and stopped in reverse. Called from one thread (the one that runs
/// `filtercast serve`'s start and stop).
package final class ServiceList: @unchecked Sendable {
    private let services: [Service]
    /// How many are running, from the first.
    private var started = 0

    package init(_ services: [Service]) { self.services = services }

    /// Starts each in order; when one fails, those started are stopped (in reverse) and its error thrown.
    package func start() throws {
        for service in services[started...] {
            do {
                try service.start()
            } catch {
                stop()
                throw error
            }
            started += 1
        }
    }

    /// Stops the running ones, last started first.
    package func stop() {
        while started > 0 {
            started -= 1
            services[started].stop()
        }
    }
}
