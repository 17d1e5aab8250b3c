/// `filtercast serve`: the live preview server. Its libwebsockets transport is the subject of the
/// server work (issue 3) and does not exist yet; until then the command says so and fails.
enum ServeCommand: Subcommand {
    static let spec = CommandSpec(
        name: "serve",
        summary: "Serve the live filtered preview to browsers (not available in this build yet).",
        usage: "filtercast serve",
        options: [])

    struct NotAvailable: Error, CustomStringConvertible {
        let description = "the preview server is not part of this build yet; use 'bench' or 'snapshot'"
    }

    static func run(_ options: ParsedOptions) throws {
        throw NotAvailable()
    }
}
