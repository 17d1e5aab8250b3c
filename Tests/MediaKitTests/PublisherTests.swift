import FilterKit
import Foundation
@testable import MediaKit
import Testing

/// `--publish` URLs, and the publisher against servers that are not there or never answer (real
/// sockets, real FFmpeg): it reports why, retries, and stops at once even mid-connect. Streams
/// that get through are checked end to end against the ffmpeg CLI (test_e2e_publish.py).
@Suite struct PublisherTests {
    @Test func theSchemeChoosesTheContainer() throws {
        #expect(try PublishTarget("rtmp://example.com/live/key").format == "flv")
        #expect(try PublishTarget("rtmps://example.com:443/live/key").format == "flv")
        #expect(try PublishTarget("RTSP://127.0.0.1:8554/filtercast").format == "rtsp")
        #expect(try PublishTarget("srt://[::1]:8890?streamid=publish:x").format == "mpegts")
    }

    @Test func logsShowNoCredentialsNorQuery() throws {
        let target = try PublishTarget("rtmp://user:secret@example.com:1935/live/stream?key=abc")
        #expect(target.description == "rtmp://example.com:1935/live/stream")
        #expect(try PublishTarget("srt://host:9000?passphrase=hunter22").description == "srt://host:9000")
    }

    @Test func aTemplateGivesEachChannelItsPath() throws {
        let template = try PublishTarget("rtsp://mediamtx:8554/{channel}")
        #expect(template.isPerChannel)
        #expect(try template.forChannel("cams").url == "rtsp://mediamtx:8554/cams")
        #expect(try template.forChannel("main").description == "rtsp://mediamtx:8554/main")
        let query = try PublishTarget("srt://host:8890?streamid=publish:{channel}").forChannel("door-2")
        #expect(query.url == "srt://host:8890?streamid=publish:door-2" && query.format == "mpegts")
        let plain = try PublishTarget("rtmp://host/live/key")
        let unchanged = try plain.forChannel("cams")
        #expect(!plain.isPerChannel && unchanged == plain, "no template: the URL as given")
    }

    @Test(arguments: [
        ("example.com/live", "no scheme"),
        ("http://example.com/live", "unsupported scheme 'http'"),
        ("rtmp:///live", "no host"),
        ("rtmp://user@:1935/live", "no host"),
        ("rtsp://host:0/x", "the port must be 1…65535"),
        ("rtsp://host:abc/x", "the port must be 1…65535"),
        ("srt://host", "srt:// needs a port"),
        ("rtmp://[::1/live", "unclosed '['"),
        ("rtmp://host/live key", "spaces are not allowed"),
        ("rtsp://{channel}.example.com/live", "{channel} belongs in the path or the query"),
    ])
    func badURLsAreRefusedNamingTheProblem(url: String, problem: String) {
        do {
            _ = try PublishTarget(url)
            Issue.record("accepted \(url)")
        } catch {
            #expect(error.description.contains(problem) && error.description.contains(url), "\(error)")
        }
    }

    /// A publisher of 160x120 frames with quick retries, and a frame to feed it.
    static func publisher(_ url: String, connectTimeout: Duration = .seconds(10),
                          changes: ConnectionLog) throws -> (Publisher, Frame) {
        var options = PublisherOptions()
        options.connectTimeout = connectTimeout
        options.retry = RetryPolicy(initial: .milliseconds(200), maximum: .milliseconds(400))
        let publisher = Publisher(target: try PublishTarget(url), width: 160, height: 120, frameRate: 30,
                                  options: options) { changes.append($0.connection) }
        let frame = Frame(width: 160, height: 120)
        let source = try InputSpec.testPattern(width: 160, height: 120, rate: 30).open()
        _ = try source.read(into: frame)
        return (publisher, frame)
    }

    @Test func aRefusedConnectionIsReportedAndRetried() throws {
        let changes = ConnectionLog()
        let port = LiveFeed.freePort(udp: false)
        let (publisher, frame) = try Self.publisher("rtmp://127.0.0.1:\(port)/live/test", changes: changes)
        publisher.start()
        publisher.publish(frame)  // a picture to send, were there a server
        #expect(changes.wait(timeout: .seconds(10)) { $0.count(of: .retrying) >= 3 }, "\(changes.all)")
        #expect(publisher.counters.failures.value >= 3)
        let status = publisher.status
        #expect(status.connection == .retrying || status.connection == .connecting)
        #expect(status.reason == "Connection refused",
                "\(status)")
        #expect(publisher.counters.connected.value == 0 && publisher.counters.frames.value == 0)
        let clock = ContinuousClock()
        let stopping = clock.now
        publisher.stop()
        // Within about one of the test's retry delays (at most 400 ms), with room for a busy machine.
        #expect(stopping.duration(to: clock.now) < .seconds(1))
        #expect(publisher.status.connection == .stopped)
        let seen = changes.all
        #expect(seen.prefix(2) == [.connecting, .retrying] && seen.last == .stopped, "\(seen)")
    }

    @Test func aServerThatNeverAnswersTimesOutAndStopDoesNotWaitForIt() throws {
        let server = try SilentServer()
        let changes = ConnectionLog()
        let (publisher, frame) = try Self.publisher("rtmp://127.0.0.1:\(server.port)/live/test",
                                                    connectTimeout: .seconds(1), changes: changes)
        publisher.start()
        publisher.publish(frame)
        #expect(changes.wait(timeout: .seconds(10)) { $0.contains(.retrying) }, "\(changes.all)")
        #expect(publisher.counters.failures.value >= 1)
        #expect(publisher.status.reason?.hasSuffix("the server did not answer within 1 s") == true, "\(publisher.status)")
        publisher.stop()

        // A connect that would wait a minute is cut short by stop(): stopped once the server has
        // its connection (a server of its own, whose queue holds no earlier one).
        let patientServer = try SilentServer()
        let (patient, _) = try Self.publisher("rtmp://127.0.0.1:\(patientServer.port)/live/test",
                                              connectTimeout: .seconds(60), changes: ConnectionLog())
        patient.start()
        #expect(patientServer.waitForConnection(timeout: .seconds(10)), "the publisher never connected")
        #expect(patient.status.connection == .connecting)
        let clock = ContinuousClock()
        let stopping = clock.now
        patient.stop()
        // Far from the minute the connect would wait, however busy the machine.
        #expect(stopping.duration(to: clock.now) < .seconds(3))
        #expect(patient.counters.failures.value == 0, "a stop is not a failure")
    }
}

/// The connection states a publisher went through, in order; a test waits for the ones it expects.
final class ConnectionLog: @unchecked Sendable {
    private let condition = NSCondition()
    private var entries: [PublishStatus.Connection] = []  // guarded by `condition`

    func append(_ connection: PublishStatus.Connection) {
        condition.lock()
        entries.append(connection)
        condition.broadcast()
        condition.unlock()
    }

    var all: [PublishStatus.Connection] {
        condition.lock()
        defer { condition.unlock() }
        return entries
    }

    /// Whether `holds` became true of the states within `timeout` (checked at every change).
    func wait(timeout: Duration, until holds: ([PublishStatus.Connection]) -> Bool) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: timeout.seconds)
        while !holds(entries) {
            guard condition.wait(until: deadline) else { return holds(entries) }
        }
        return true
    }
}

extension [PublishStatus.Connection] {
    func count(of connection: PublishStatus.Connection) -> Int { filter { $0 == connection }.count }
}

/// A TCP socket on 127.0.0.1 that listens and never accepts: connections complete in the kernel
/// and then hear nothing, like a media server that hangs.
final class SilentServer {
    let port: Int
    private let descriptor: Int32

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.descriptor = descriptor
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(descriptor, address, length) == 0 && listen(descriptor, 8) == 0
                    && getsockname(descriptor, address, &length) == 0
            }
        }
        guard bound else { throw TestClipError(description: "cannot listen on 127.0.0.1: errno \(errno)") }
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether a connection is waiting to be accepted (never accepted: it stays) within `timeout`.
    func waitForConnection(timeout: Duration) -> Bool {
        var pending = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&pending, 1, Int32(timeout.seconds * 1000)) == 1
    }

    deinit { close(descriptor) }
}
