import CastServer
import MediaKit

/// `--channel NAME=INPUT` (repeatable; `FILTERCAST_CHANNELS`, entries separated by `;`) and
/// `--max-channels N`: the channels of `filtercast serve`. `--input` is the channel `main`, the
/// default one; without `--input` the first `--channel` is the default (no test pattern runs
/// beside the channels asked for); with neither, `main` plays the test pattern.
enum ChannelOptions {
    static let defaultMaximum = 16

    static let specs = [
        OptionSpec(name: "--channel", valueName: "NAME=INPUT",
                   help: "Also serve INPUT (anything --input takes) as channel NAME: 1-32 of a-z 0-9 _ -, starting with a letter or digit (repeatable; ?channel=NAME).",
                   repeatable: true, environmentOverride: "FILTERCAST_CHANNELS", environmentSeparator: ";"),
        OptionSpec(name: "--max-channels", valueName: "N", help: "Most channels, the default one included (default 16)."),
    ]

    /// Sets the default channel (its name and input) and the others from `options`; a bad name
    /// or input, a name given twice or more channels than `--max-channels` is a usage error.
    static func apply(_ options: ParsedOptions, to configuration: inout ServerConfiguration) throws {
        configuration.maxChannels = try options.int("--max-channels", in: 1...1000) ?? defaultMaximum
        var channels = try options.entries.filter { $0.name == "--channel" }.map { try channel($0.value, options) }
        if options.has("--input") || channels.isEmpty {
            channels.insert(ChannelInput(name: .main, input: try parseInput(options)), at: 0)
        }
        var seen = Set<ChannelName>()
        for channel in channels where !seen.insert(channel.name).inserted {
            let main = channel.name == .main && options.has("--input") ? " (\(options.source("--input")) is the channel main)" : ""
            throw UsageError(description: "\(options.source("--channel")): the channel '\(channel.name)' is given twice\(main)")
        }
        guard channels.count <= configuration.maxChannels else {
            throw UsageError(description: "\(channels.count) channels, more than --max-channels \(configuration.maxChannels)")
        }
        configuration.defaultChannel = channels[0].name
        configuration.input = channels[0].input
        configuration.channels = Array(channels.dropFirst())
    }

    /// One `NAME=INPUT`.
    private static func channel(_ text: String, _ options: ParsedOptions) throws -> ChannelInput {
        let source = options.source("--channel")
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex, text.index(after: equals) != text.endIndex else {
            throw UsageError(description: "\(source) must be NAME=INPUT, such as cam1=rtsp://10.0.0.5/stream, got '\(text)'")
        }
        let name: ChannelName
        do throws(ChannelNameError) {
            name = try ChannelName(String(text[..<equals]))
        } catch {
            throw UsageError(description: "\(source) \(error.description)")
        }
        do throws(MediaError) {
            return ChannelInput(name: name, input: try InputSpec(parsing: String(text[text.index(after: equals)...])))
        } catch {
            throw UsageError(description: "\(source) \(name): \(error.description)")
        }
    }
}
