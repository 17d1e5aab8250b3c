import FilterKit
import MediaKit
import Testing

@Suite("Input specs, the test pattern and cameras", .timeLimit(.minutes(3)))
struct TestPatternTests {
    @Test("test:320x240@15 opens as a live source with frames 1/15 s apart")
    func testPatternIsLive() throws {
        let spec = try InputSpec(parsing: "test:320x240@15")
        #expect(spec == .testPattern(width: 320, height: 240, rate: 15))
        #expect(spec.isLive)
        let source = try spec.open()
        #expect(source is LiveSource)
        #expect(!(source is any SeekableVideoSource))
        #expect(source.info.isLive)
        #expect(source.info.duration == nil)
        #expect(source.info.width == 320 && source.info.height == 240)
        #expect(source.info.frameRate == 15)

        let frame = Frame(width: 320, height: 240)
        var times: [Double] = []
        for expectedSequence in 0..<20 {
            #expect(try source.read(into: frame))
            #expect(frame.sequence == expectedSequence)
            times.append(frame.time)
        }
        for (earlier, later) in zip(times, times.dropFirst()) {
            #expect(abs(later - earlier - 1.0 / 15) < 1e-6, "times \(times)")
        }
        // testsrc2 moves: consecutive frames differ, and the picture is not blank.
        let luma = frame.y.bytes
        #expect(Set(luma).count > 16)
        #expect(try source.read(into: frame))
        #expect(frame.y.bytes != luma)
    }

    @Test("the test pattern can be scaled to an output size")
    func testPatternOutputSize() throws {
        let source = try InputSpec(parsing: "test:320x240@15").open(SourceOptions(outputSize: (width: 100, height: 50)))
        #expect(source.info.width == 100 && source.info.height == 50)
        let frame = Frame(width: 100, height: 50)
        #expect(try source.read(into: frame))
    }

    @Test("parses the kinds of input")
    func parsesSpecs() throws {
        #expect(try InputSpec(parsing: "test") == .defaultTestPattern)
        #expect(try InputSpec(parsing: "test:640x480") == .testPattern(width: 640, height: 480, rate: 30))
        #expect(try InputSpec(parsing: "/dev/video0") == .camera(device: "/dev/video0"))
        #expect(try InputSpec(parsing: "clips/a.mp4") == .file("clips/a.mp4"))
        #expect(try InputSpec(parsing: "rtsp://example.invalid/stream") == .file("rtsp://example.invalid/stream"))
        #expect(!InputSpec.file("a.mp4").isLive)
        #expect(InputSpec.camera(device: "/dev/video0").isLive)
    }

    @Test("rejects bad test pattern specs with a message", arguments: [
        "test:0x0", "test:abc", "test:320x240@0", "test:320x240@abc", "test:320x", "test:15x15",
        "test:320x240@15@15", "test:99999x240", "test:320x240@241", "test:-320x240", "",
    ])
    func rejectsBadSpecs(_ text: String) {
        let error = #expect(throws: MediaError.self) { _ = try InputSpec(parsing: text) }
        let description = error?.description ?? ""
        #expect(!description.isEmpty)
        if !text.isEmpty {
            #expect(description.contains(text), "the message should quote the spec: \(description)")
        }
    }

    @Test("a camera that does not exist fails with a message naming the device")
    func missingCamera() throws {
        let spec = try InputSpec(parsing: "/dev/video9")
        let error = #expect(throws: MediaError.self) { _ = try spec.open() }
        let description = error?.description ?? ""
        print("missing camera: \(description)")
        #expect(description.contains("/dev/video9"), "\(description)")
        #expect(description.count > "/dev/video9".count + 5)
    }
}
