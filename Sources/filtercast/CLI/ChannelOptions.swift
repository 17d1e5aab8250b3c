import CastServer
import Logging
import MediaKit

/// `--channel NAME=INPUT` (repeatable; `FILTERCAST_CHANNELS`, entries separated by `;`),
/// `--max-channels N`, `--max-channel-viewers N`, `--channels-file`, `--idle-close S` and `--always-on NAME`: the channels of
/// `filtercast serve`. `--input` is the channel `main`, the
/// default one; without `--input` the first `--channel` is the default (no test pattern runs
/// beside the channels asked for); with neither, `main` plays the test pattern.
enum ChannelOptions {
    static let defaultMaximum = 16

    static let specs = [
        OptionSpec(name: "--channel", valueName: "NAME=INPUT",
                   help: "Also serve INPUT (anything --input takes) as channel NAME: 1-32 of a-z 0-9 _ -, starting with a letter or digit (repeatable; ?channel=NAME).",
                   repeatable: true, environmentOverride: "FILTERCAST_CHANNELS", environmentSeparator: ";"),
        OptionSpec(name: "--max-channels", valueName: "N", help: "Most channels, the default one included (default 16)."),
        OptionSpec(name: "--max-channel-viewers", valueName: "N",
                   help: "Most simultaneous viewers and streams of one channel (default: no limit but --max-clients)."),
        OptionSpec(name: "--channels-file", valueName: "FILE",
                   help: "Keep channels in FILE (JSON, created when missing): read at start, rewritten when channels are added or removed at run time; --channel wins over it."),
        OptionSpec(name: "--idle-close", valueName: "S",
                   help: "Close a channel's live input (camera, stream, test pattern) when nothing has watched, recorded or published it for S seconds; it opens again for the next viewer (default 10; 0: never)."),
        OptionSpec(name: "--always-on", valueName: "NAME",
                   help: "Keep channel NAME's live input open while nobody watches, ready at once (repeatable; \"alwaysOn\": true in the channels file).",
                   repeatable: true),
    ]

    /// `--channels-file`: read (created when missing) and merged after the command line's channels —
    /// a name in both plays the command line's input, and a line says so. A bad file, or more
    /// channels than `--max-channels` with it, stops the start (exit 1) naming the file.
    static func applyFile(_ options: ParsedOptions, to configuration: inout ServerConfiguration) throws {
        guard let path = options.string("--channels-file") else { return }
        guard !path.isEmpty else { throw UsageError(description: "\(options.source("--channels-file")) must name a file") }
        let file = try ChannelsFile(path: path, catalog: configuration.catalog)
        configuration.channelsFile = file
        let given = Set([configuration.defaultChannel] + configuration.channels.map(\.name))
        for channel in file.channels(catalog: configuration.catalog) {
            guard !given.contains(channel.name) else {
                Log.info("channel \(channel.name): the command line's input is used, not the one in \(path)",
                         ["channel": .string(channel.name.description)])
                continue
            }
            configuration.channels.append(channel)
        }
        let count = configuration.channels.count + 1
        guard count <= configuration.maxChannels else {
            throw ServerError(description: "the channels file \(path): \(count) channels with the command line's, more than --max-channels \(configuration.maxChannels)")
        }
    }

    /// `--idle-close` and `--always-on`, once every channel is known (the channels file's too): a
    /// name that is no channel is a usage error.
    static func applyOnDemand(_ options: ParsedOptions, to configuration: inout ServerConfiguration) throws {
        if let seconds = try options.double("--idle-close", in: 0...86_400) {
            configuration.playback.idleClose = seconds == 0 ? nil : .seconds(seconds)
        }
        let known = Set([configuration.defaultChannel] + configuration.channels.map(\.name))
        for entry in options.entries where entry.name == "--always-on" {
            let name: ChannelName
            do throws(ChannelNameError) { name = try ChannelName(entry.value) } catch {
                throw UsageError(description: "\(options.source("--always-on")) \(error.description)")
            }
            guard known.contains(name) else {
                throw UsageError(description: "\(options.source("--always-on")): there is no channel '\(name)' (the channels: \(known.map(\.description).sorted().joined(separator: ", ")))")
            }
            configuration.alwaysOn.insert(name)
        }
    }

    /// Sets the default channel (its name and input) and the others from `options`; a bad name
    /// or input, a name given twice or more channels than `--max-channels` is a usage error.
    static func apply(_ options: ParsedOptions, to configuration: inout ServerConfiguration) throws {
        configuration.maxChannels = try options.int("--max-channels", in: 1...1000) ?? defaultMaximum
        configuration.maxChannelViewers = try options.int("--max-channel-viewers", in: 1...10_000)
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
