import FilterKit
import Foundation
import MediaKit

/// `filtercast snapshot`: one filtered frame at an exact time, as a JPEG file.
enum SnapshotCommand: Subcommand {
    static let spec = CommandSpec(
        name: "snapshot",
        summary: "Write one filtered frame — the first at or after --at — as a JPEG file.",
        usage: "filtercast snapshot [--input SRC] --at SECONDS [--filter NAME [--param K=V …] …] [--luts DIR] [--styles DIR] [--quality Q] -o OUT.jpg",
        options: [inputOption,
                  OptionSpec(name: "--at", valueName: "SECONDS", help: "Time of the frame (default 0).")]
            + FilterOptions.specs + [LUTOptions.spec, StyleOptions.spec,
            OptionSpec(name: "--quality", valueName: "Q", help: "JPEG quality 1…100 (default 90)."),
            OptionSpec(name: "-o", valueName: "OUT.jpg", help: "Where to write the JPEG (required)."),
        ])

    static func run(_ options: ParsedOptions) throws {
        let engines = Engines()
        // The style network's worker ended before exit tears OpenVINO down (Engines.stop).
        defer { engines.stop(within: .seconds(5)) }
        guard let output = options.string("-o") else { throw UsageError(description: "-o OUT.jpg is required") }
        try checkFolder(of: output)
        let input = try parseInput(options)
        let time = try options.double("--at", in: 0...1e9) ?? 0
        let catalog = try StyleOptions.catalog(options, engines: engines)
        let filter = try FilterOptions.chain(from: options, catalog: catalog)
        let quality = try options.int("--quality", in: 1...100) ?? 90

        let source = try input.open()
        source.onWarning = { printWarning($0) }
        let frame = Frame(width: source.info.width, height: source.info.height)
        if let seekable = source as? SeekableVideoSource {
            if let duration = source.info.duration, time > duration {
                throw UsageError(description: "--at \(time) is past the end of \(source.info.name) (\(fixed(duration, 3)) s)")
            }
            try seekable.seek(to: time, into: frame)
        } else {
            // A live source has no timeline: wait for the frame that far into the stream.
            repeat {
                guard try source.read(into: frame) else { throw MediaError.endOfStream(input: source.info.name) }
            } while frame.time < time
        }
        FilterRunner(selection: FilterSelection(filter), catalog: catalog).apply(to: frame)
        let jpeg = try JPEGEncoder(width: frame.width, height: frame.height, quality: quality).encode(frame)
        guard FileManager.default.createFile(atPath: output, contents: Data(jpeg)) else {
            throw MediaError.invalidInput("cannot write \(output): \(String(cString: strerror(errno)))")
        }
        print("\(output): \(frame.width)x\(frame.height) frame at \(fixed(frame.time, 3)) s, \(filter), \(jpeg.count) bytes")
    }

    /// Fails, before any decoding, when `-o`'s folder is not there to write in.
    private static func checkFolder(of output: String) throws {
        let folder = (output as NSString).deletingLastPathComponent
        var isFolder: ObjCBool = false
        guard folder.isEmpty || (FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) && isFolder.boolValue) else {
            throw UsageError(description: "-o \(output): the folder \(folder) does not exist")
        }
    }
}
