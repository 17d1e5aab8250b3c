import FilterKit
import Foundation
@testable import MediaKit
import Testing

/// A network stream that stops sending without closing must not hold the player (and so the
/// server's shutdown) for ever.
@Suite struct StalledStreamTests {
    /// Serves the first `bytes` of `file` to one TCP client on 127.0.0.1, then keeps the
    /// connection open without sending anything until `release()`.
    final class StallingServer: @unchecked Sendable {
        let port: UInt16
        private let listener: Int32
        private let released = DispatchSemaphore(value: 0)

        init(serving data: [UInt8]) throws {
            let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            self.listener = listener
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = 0
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) }
            }
            guard bound == 0, listen(listener, 1) == 0 else { throw TestClipError(description: "cannot listen") }
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
            }
            port = UInt16(bigEndian: address.sin_port)
            Thread.detachNewThread { [self] in
                let client = accept(listener, nil, nil)
                guard client >= 0 else { return }
                _ = data.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                released.wait()
                close(client)
            }
        }

        func release() {
            released.signal()
            close(listener)
        }
    }

    @Test func stoppingThePlayerInterruptsAStalledRead() throws {
        let clip = try TestClips.clip("stall.ts", TestClips.lavfi(width: 160, height: 120, rate: 25, duration: 4)
            + ["-c:v", "libx264", "-g", "25", "-f", "mpegts"])
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: clip)))
        let server = try StallingServer(serving: Array(bytes.prefix(bytes.count / 3)))
        defer { server.release() }

        let source = try InputSpec.file("tcp://127.0.0.1:\(server.port)").open()
        let player = Player(source: source)
        player.start()
        // It plays what it got, then blocks waiting for more.
        var frames = 0
        while let frame = player.output.take(timeout: .seconds(3)) {
            frames += 1
            player.pool.recycle(frame)
        }
        #expect(frames > 0)
        let started = ContinuousClock.now
        player.stop()
        let took = started.duration(to: .now)
        #expect(took < .seconds(2), "stop() took \\(took) with a stalled stream")
    }
}
