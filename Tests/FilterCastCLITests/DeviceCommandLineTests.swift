import Foundation
import Testing

/// `filtercast devices` and the camera error paths. There is no camera on the build machine and
/// none can be faked (v4l2loopback cannot load), so these run against real device files that are
/// not cameras, and against the absence of cameras.
@Suite struct DeviceCommandLineTests {
    /// The `/dev/video*` nodes of this machine (none on the build machine).
    static let videoNodes = ((try? FileManager.default.contentsOfDirectory(atPath: "/dev")) ?? [])
        .filter { $0.hasPrefix("video") }

    @Test func devicesSaysClearlyWhenThereAreNone() throws {
        let run = try CLI.run(["devices"])
        #expect(run.status == 0, "\(run.errors)")
        if Self.videoNodes.isEmpty {
            #expect(run.output.contains("no capture devices found"), "\(run.output)")
        } else {
            // A machine with cameras lists each capture device by path.
            #expect(run.output.contains("/dev/video") || run.output.contains("no capture devices found"))
        }
    }

    @Test func devicesJSONIsAList() throws {
        let run = try CLI.run(["devices", "--json"])
        #expect(run.status == 0, "\(run.errors)")
        let object = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any]
        let devices = try #require(object?["devices"] as? [[String: Any]])
        if Self.videoNodes.isEmpty { #expect(devices.isEmpty) }
        for device in devices {
            #expect(Set(device.keys) == ["path", "card", "driver", "formats"])
        }
    }

    /// (input, words the one error line must contain)
    static let cameraErrors: [(String, [String])] = [
        ("/dev/null", ["/dev/null", "not a capture device"]),
        ("/dev/zero", ["/dev/zero", "not a capture device"]),
        ("/dev/video9", ["/dev/video9", "no such device"]),
    ] + (videoNodes.isEmpty ? [("camera", ["no capture devices found"])] : [])

    @Test(arguments: cameraErrors)
    func aDeviceThatCannotCaptureIsRefusedWithAClearMessage(_ input: String, _ words: [String]) throws {
        for command in [["serve", "--port", "0"], ["snapshot", "-o", "/tmp/never-written.jpg"]] {
            let run = try CLI.run(command + ["--input", input])
            #expect(run.status == 1, "\(command) \(input): \(run.errors)")
            #expect(run.errorLines.count == 1, "one line, got: \(run.errors)")
            for word in words {
                #expect(run.errors.contains(word), "\(command) \(input): '\(word)' missing from: \(run.errors)")
            }
        }
    }

    @Test func helpListsTheCameraOptions() throws {
        let serve = try CLI.run(["serve", "--help"])
        for option in ["--camera-format", "--size", "--max-fps", "--stall-timeout"] {
            #expect(serve.output.contains(option))
        }
        #expect(try CLI.run(["devices", "--help"]).output.contains("filtercast devices"))
        #expect(try CLI.run(["--help"]).output.contains("devices"))
    }
}
