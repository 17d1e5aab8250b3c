@testable import CastServer
import Testing

/// A shared camera's name as every viewer sees it: the label where it looks like a device's,
/// never a path, never at length.
@Suite struct SharedCameraNameTests {
    @Test(arguments: [
        ("FaceTime HD Camera", "FaceTime HD Camera (shared camera)"),
        ("fake_device_0", "fake_device_0 (shared camera)"),
        ("  Integrated Webcam (04f2:b6dd)  ", "Integrated Webcam (04f2:b6dd) (shared camera)"),
        ("Logi C920 v1.0", "Logi C920 v1.0 (shared camera)"),
    ])
    func aDeviceNameIsShownWithWhatItIs(_ label: String, _ shown: String) {
        #expect(SharedCameraName.shown(label: label) == shown)
    }

    @Test(arguments: [
        "/tmp/pytest-of-root/pytest-3/upright0/upright.y4m",
        "C:\\Users\\me\\Videos\\clip",
        "upright.y4m",
        "holiday.MP4",
        "camera/front",
        "",
        "   ",
        "Camera\u{0007}",
        "Cam\u{202E}era",
    ])
    func aPathOrAFileOrNothingIsAGenericSharedCamera(_ label: String) {
        #expect(SharedCameraName.shown(label: label) == "shared camera")
    }

    @Test func aLongLabelIsCutTo48Characters() {
        let long = String(repeating: "Very Long Camera Name ", count: 10)
        let shown = SharedCameraName.shown(label: long)
        #expect(shown.hasSuffix("… (shared camera)"), "\(shown)")
        #expect(shown.dropLast(" (shared camera)".count).count <= 48)
        let exact = String(repeating: "c", count: 48)
        #expect(SharedCameraName.shown(label: exact) == exact + " (shared camera)", "48 is kept whole")
    }
}
