/// A `filtercast` subcommand: its command-line interface and what it does.
protocol Subcommand: SendableMetatype {
    static var spec: CommandSpec { get }
    /// Runs the command; throws `UsageError` for bad arguments, anything else for failures.
    static func run(_ options: ParsedOptions) throws
}

/// The shared `--input` option.
let inputOption = OptionSpec(name: "--input", valueName: "SRC",
                             help: "File, URL, /dev/videoN, camera (the first one), or test[:WxH@FPS] (default: test:1280x720@30).")
