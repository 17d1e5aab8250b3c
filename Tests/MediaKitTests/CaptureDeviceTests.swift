import Foundation
@testable import MediaKit
import Testing

/// Opening capture devices: the error paths (no camera can exist here, see NOTES) and the listing.
@Suite struct CaptureDeviceTests {
    @Test func aFileThatIsNotAV4L2DeviceIsNotACaptureDevice() {
        for path in ["/dev/null", "/dev/zero"] {
            let error = #expect(throws: MediaError.self) { try CaptureDevice.probe(path) }
            guard case .openFailed(let input, let reason) = error else {
                Issue.record("expected openFailed, got \(String(describing: error))")
                continue
            }
            #expect(input == path)
            #expect(reason.hasPrefix("not a capture device"), "\(reason)")
        }
    }

    @Test func aMissingDeviceIsNoSuchDevice() {
        #expect(throws: MediaError.openFailed(input: "/dev/video9", reason: "no such device")) {
            try CaptureDevice.probe("/dev/video9")
        }
    }

    /// EBUSY cannot be produced without a camera; this is the message it gives (from our probe's
    /// open, or from FFmpeg's when another program streams from the device).
    @Test func errnoValuesGiveMessagesThatSayWhatToDo() {
        #expect(CaptureDevice.openFailureReason(EBUSY) == "the device is busy: another program is using it")
        #expect(CaptureDevice.openFailureReason(EACCES).contains("permission denied"))
        #expect(CaptureDevice.openFailureReason(ENODEV) == "no such device")
        #expect(CaptureDevice.openFailureReason(EISDIR) == String(cString: strerror(EISDIR)))
    }

    @Test func listingSkipsNodesThatCannotCaptureAndKeepsNumberOrder() throws {
        let folder = TestClips.path("fake-dev-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // video0 is a plain file, video1 a link to /dev/null, videoX is not a video node name.
        #expect(FileManager.default.createFile(atPath: folder + "/video0", contents: Data([1, 2, 3])))
        try FileManager.default.createSymbolicLink(atPath: folder + "/video1", withDestinationPath: "/dev/null")
        #expect(FileManager.default.createFile(atPath: folder + "/videoX", contents: nil))
        #expect(CaptureDevice.list(in: folder).isEmpty)
        // This machine's own /dev: only real capture devices, in order.
        let paths = CaptureDevice.list().map(\.path)
        #expect(paths.allSatisfy { $0.hasPrefix("/dev/video") && FileManager.default.fileExists(atPath: $0) })
    }

    @Test func cameraInputsParseAndFailToOpenWithTheDevicesMessage() throws {
        #expect(try InputSpec(parsing: "camera") == .firstCamera)
        #expect(try InputSpec(parsing: "/dev/null") == .camera(device: "/dev/null"))
        #expect(InputSpec.firstCamera.isLive)
        let error = #expect(throws: MediaError.self) { _ = try InputSpec.camera(device: "/dev/null").open() }
        #expect(error?.description == "cannot open /dev/null: not a capture device (not a V4L2 device: \(String(cString: strerror(ENOTTY))))")
        if CaptureDevice.list().isEmpty {
            let none = #expect(throws: MediaError.self) { _ = try InputSpec.firstCamera.open() }
            #expect(none?.description.contains("no capture devices found") == true)
        }
    }
}
