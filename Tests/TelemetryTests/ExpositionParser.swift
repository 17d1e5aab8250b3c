/// A strict reader of the Prometheus text format (0.0.4), independent of the renderer: it checks
/// the shape of every line and gives the samples back.
struct Exposition {
    struct Sample: Equatable {
        let name: String
        let labels: [String: String]
        let value: Double
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    var help: [String: String] = [:]
    var types: [String: String] = [:]
    var samples: [Sample] = []

    init(parsing text: String) throws {
        guard text.hasSuffix("\n") else { throw Failure(description: "the text must end with a newline") }
        for line in text.dropLast().split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("# HELP ") || line.hasPrefix("# TYPE ") {
                let rest = line.dropFirst(7)
                guard let space = rest.firstIndex(of: " ") else { throw Failure(description: "bad comment: \(line)") }
                let name = String(rest[..<space]), value = String(rest[rest.index(after: space)...])
                if line.hasPrefix("# HELP ") {
                    guard help[name] == nil else { throw Failure(description: "second HELP for \(name)") }
                    help[name] = try Self.unescape(value, quotes: false)
                } else {
                    guard ["counter", "gauge", "histogram", "summary", "untyped"].contains(value), types[name] == nil else {
                        throw Failure(description: "bad or second TYPE: \(line)")
                    }
                    types[name] = value
                }
                continue
            }
            samples.append(try Self.sample(line))
        }
    }

    func value(_ name: String, _ labels: [String: String] = [:]) -> Double? {
        samples.first { $0.name == name && $0.labels == labels }?.value
    }

    private static func sample(_ line: String) throws -> Sample {
        var rest = Substring(line)
        let name = String(rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == ":" })
        guard !name.isEmpty, !name.first!.isNumber else { throw Failure(description: "bad name: \(line)") }
        rest = rest.dropFirst(name.count)
        var labels: [String: String] = [:]
        if rest.first == "{" {
            rest = rest.dropFirst()
            while rest.first != "}" {
                let key = String(rest.prefix { $0 != "=" })
                rest = rest.dropFirst(key.count)
                guard rest.hasPrefix("=\"") else { throw Failure(description: "bad label: \(line)") }
                rest = rest.dropFirst(2)
                var raw = ""
                while let character = rest.first, character != "\"" {
                    raw.append(character)
                    rest = rest.dropFirst()
                    if character == "\\", let next = rest.first { raw.append(next); rest = rest.dropFirst() }
                }
                guard rest.first == "\"" else { throw Failure(description: "unterminated label value: \(line)") }
                rest = rest.dropFirst()
                guard labels[key] == nil else { throw Failure(description: "repeated label: \(line)") }
                labels[key] = try unescape(raw, quotes: true)
                if rest.first == "," { rest = rest.dropFirst() }
            }
            rest = rest.dropFirst()
        }
        guard rest.first == " " else { throw Failure(description: "no value: \(line)") }
        let text = String(rest.dropFirst())
        let value: Double? = switch text {
        case "+Inf": .infinity
        case "-Inf": -.infinity
        case "NaN": .nan
        default: Double(text)
        }
        guard let value else { throw Failure(description: "bad value: \(line)") }
        return Sample(name: name, labels: labels, value: value)
    }

    private static func unescape(_ text: String, quotes: Bool) throws -> String {
        var out = "", escaping = false
        for character in text {
            if escaping {
                switch character {
                case "\\": out.append("\\")
                case "n": out.append("\n")
                case "\"" where quotes: out.append("\"")
                default: throw Failure(description: "bad escape \\\(character) in \(text)")
                }
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                guard character != "\n" && (!quotes || character != "\"") else { throw Failure(description: "unescaped in \(text)") }
                out.append(character)
            }
        }
        guard !escaping else { throw Failure(description: "dangling backslash in \(text)") }
        return out
    }
}
