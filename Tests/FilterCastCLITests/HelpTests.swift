import CastProtocol
import Foundation
import Testing

/// Help as two aligned columns, `--version`, and "did you mean" for a mistyped option.
@Suite struct HelpTests {
    /// The rows of a help section: each line under `heading` up to the next blank line.
    static func rows(_ help: String, under heading: String) -> [Substring] {
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0.hasPrefix(heading) }) else { return [] }
        return Array(lines[(start + 1)...].prefix { !$0.isEmpty })
    }

    /// Where a row's second column starts: after its label and a gap of at least two spaces.
    static func secondColumn(_ row: Substring) -> Int? {
        guard let gap = row.dropFirst(2).range(of: "  ") else { return nil }
        let text = row[gap.upperBound...].drop { $0 == " " }
        return text.isEmpty ? nil : row.distance(from: row.startIndex, to: text.startIndex)
    }

    @Test(arguments: [["serve"], ["bench"], ["snapshot"], ["filters"], ["devices"]])
    func optionsAreTwoAlignedColumns(_ subcommand: [String]) throws {
        let run = try CLI.run(subcommand + ["--help"])
        #expect(run.status == 0)
        let options = Self.rows(run.output, under: "Options:")
        #expect(options.contains { $0.hasPrefix("  -h, --help  ") && $0.hasSuffix("Show this help.") }, "\(options)")
        let columns = Set(options.map(Self.secondColumn))
        #expect(columns.count == 1 && columns.first! != nil, "one column for every option's text:\n\(options.joined(separator: "\n"))")
        let environment = Self.rows(run.output, under: "Environment").filter { $0.hasPrefix("  -") }
        #expect(environment.allSatisfy { Self.secondColumn($0) == columns.first! }, "the variables in the same column")
    }

    @Test func versionNamesTheProgramAndTheProtocol() throws {
        let run = try CLI.run(["--version"])
        #expect(run.status == 0)
        #expect(run.output == "filtercast 0.1 (protocol \(ProtocolVersion.subprotocol))\n")
        #expect(run.output == "filtercast 0.1 (protocol filtercast.v1)\n")
        #expect(try CLI.run(["--help"]).output.contains("--version"), "the help says so")
    }

    /// (arguments, the hint the error line must end with)
    static let mistyped: [([String], String)] = [
        (["serve", "--prot", "80"], "unknown option '--prot' (did you mean --port?)"),
        (["serve", "--max-client=3"], "unknown option '--max-client' (did you mean --max-clients?)"),
        (["filters", "--jsno"], "unknown option '--jsno' (did you mean --json?)"),
        (["devices", "--hepl"], "unknown option '--hepl' (did you mean --help?)"),
        (["bench", "--bogus"], "unknown option '--bogus'"),
        (["serve", "--bogus"], "unknown option '--bogus'"),
        (["serve", "--lokos", "x"], "unknown option '--lokos' (did you mean --looks?)"),
    ]

    @Test(arguments: mistyped)
    func aMistypedOptionGetsTheNearestName(_ arguments: [String], _ message: String) throws {
        let run = try CLI.run(arguments)
        #expect(run.status == 2)
        #expect(run.errorLines.count == 1 && run.errors.contains("\(message) (see 'filtercast"), "\(run.errors)")
    }
}
