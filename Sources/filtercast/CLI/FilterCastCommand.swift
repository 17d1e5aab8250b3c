import CastProtocol
import Foundation
import Logging
import MediaKit

/// The `filtercast` entry point: picks the subcommand, runs it, maps errors to exit codes
/// (2 for a bad command line, 1 for anything else).
enum FilterCastCommand {
    static let subcommands: [any Subcommand.Type] = [ServeCommand.self, BenchCommand.self, SnapshotCommand.self,
                                                     FiltersCommand.self, DevicesCommand.self]

    static var help: String {
        let width = subcommands.map { $0.spec.name.count }.max() ?? 0
        let list = subcommands.map { command in
            "  " + command.spec.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + command.spec.summary
        }
        return """
            FilterCast: a live, filtered video preview for browsers.

            Usage: filtercast [SUBCOMMAND] [OPTIONS]   (no subcommand: serve)

            Subcommands:
            \(list.joined(separator: "\n"))

            'filtercast SUBCOMMAND --help' describes each one; 'filtercast --version' prints the version.
            """
    }

    /// What `--version` prints: the program's version and the protocol it speaks.
    static var version: String { "filtercast \(ProtocolVersion.programVersion) (protocol \(ProtocolVersion.subprotocol))" }

    static func main(_ arguments: [String]) -> Int32 {
        if let first = arguments.first, first == "-h" || first == "--help" || first == "help" {
            print(help)
            return 0
        }
        if arguments.first == "--version" {
            print(version)
            return 0
        }
        let name = arguments.first.flatMap { $0.hasPrefix("-") ? nil : $0 } ?? "serve"
        let rest = arguments.first == name ? Array(arguments.dropFirst()) : arguments
        guard let command = subcommands.first(where: { $0.spec.name == name }) else {
            printError("unknown subcommand '\(name)' (see 'filtercast --help')")
            return 2
        }
        do {
            let options = try ParsedOptions(rest, for: command.spec)
            try configureLog(options)
            for variable in options.unknownVariables { Log.warning(variable) }
            try command.run(options)
            return 0
        } catch is HelpRequested {
            print(command.spec.help)
            return 0
        } catch let error as UsageError {
            printError("\(command.spec.name): \(error) (see 'filtercast \(command.spec.name) --help')")
            return 2
        } catch {
            printError("\(command.spec.name): \(error)")
            return 1
        }
    }

    /// `--log-level` and `--log-format`, for the commands that have them, before anything is
    /// logged: from the first line to the last, stderr is in the chosen format. A bad value is a
    /// usage error (in text: no format was chosen).
    private static func configureLog(_ options: ParsedOptions) throws {
        let level: LogLevel? = try options.choice("--log-level")
        let format: LogFormat? = try options.choice("--log-format")
        Log.configure(level: level ?? .info, format: format ?? .text)
    }
}

/// Parses `--input` (default: the test pattern).
func parseInput(_ options: ParsedOptions) throws -> InputSpec {
    guard let text = options.string("--input") else { return .defaultTestPattern }
    do {
        return try InputSpec(parsing: text)
    } catch {
        throw UsageError(description: "\(options.source("--input")): \(error.description)")
    }
}

/// A fatal error: one line through the logger (in the chosen format).
func printError(_ message: String) { Log.error(message) }

func printWarning(_ message: String) { Log.warning(message) }
