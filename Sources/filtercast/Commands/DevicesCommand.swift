import Foundation
import MediaKit

/// `filtercast devices`: the V4L2 capture devices with their formats, sizes and rates.
enum DevicesCommand: Subcommand {
    static let spec = CommandSpec(
        name: "devices",
        summary: "List the capture devices (cameras) with their formats, sizes and frame rates.",
        usage: "filtercast devices [--json]",
        options: [OptionSpec(name: "--json", valueName: nil, help: "Print {\"devices\":[…]}.")])

    struct Listing: Encodable {
        let devices: [CaptureDevice]
    }

    static func run(_ options: ParsedOptions) throws {
        let devices = CaptureDevice.list()
        if options.has("--json") {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            print(String(decoding: try encoder.encode(Listing(devices: devices)), as: UTF8.self))
            return
        }
        if devices.isEmpty {
            print("no capture devices found (no /dev/video* that can capture video)")
            return
        }
        for device in devices {
            print("\(device.path): \(device.card) (\(device.driver))")
            for format in device.formats {
                let name = format.cameraFormat.map { " --camera-format \($0)" } ?? ""
                print("    \(format.fourcc) \(format.description)\(name)")
                for size in format.sizes {
                    let rates = size.rates.map { $0 == $0.rounded() ? String(Int($0)) : String($0) }
                    print("        \(size.width)x\(size.height)\(size.stepwise ? " (range end)" : ""): "
                        + (rates.isEmpty ? "rates not listed" : rates.joined(separator: ", ") + " fps"))
                }
            }
        }
    }
}
