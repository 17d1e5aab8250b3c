import Foundation

/// `--data DIR` (`FILTERCAST_DATA`): the one folder `serve` keeps what it writes in — `recordings/`,
/// `looks/`, `comments/`, `luts/`, `styles/`, `uploads/`, `backgrounds/` (`backgroundReplace`'s uploaded pictures,
/// where the person matte runs) and the seek bar's `thumbnails/` — each made when first written. Each folder option
/// (`--recordings`, `--looks`, `--comments`, `--luts`, `--styles`, `--uploads`) still overrides its part.
enum DataFolder {
    /// What the folder holds, as the line after the ready line lists it.
    static let parts = "recordings, looks, comments, LUTs, styles, uploads, backgrounds, thumbnails"

    static let spec = OptionSpec(name: "--data", valueName: "DIR",
                                 help: "The folder of everything the server writes: recordings/, looks/, comments/, luts/, styles/, uploads/, backgrounds/ and the seek bar's thumbnails/, each made when first written "
                                     + "(default $XDG_DATA_HOME/filtercast, or ~/.local/share/filtercast); each folder option overrides its part.")

    /// The folder `--data` names, else the XDG default for `environment`'s user.
    static func path(_ options: ParsedOptions, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> String {
        if let given = options.string("--data") {
            guard !given.isEmpty else { throw UsageError(description: "\(options.source("--data")) must name a folder") }
            return given
        }
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") { return xdg + "/filtercast" }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share/filtercast"
    }

    /// Where `part` (`recordings`, `looks`, …) is kept: what `option` names, else `data/part`.
    static func part(_ part: String, option: String, of options: ParsedOptions, data: String) -> String {
        options.string(option) ?? data + "/" + part
    }
}
