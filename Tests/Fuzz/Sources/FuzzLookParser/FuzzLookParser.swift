import CastProtocol
import FilterKit

/// The look-file parser on any bytes (a look file is written by hand or dropped on a page): it
/// takes the file or refuses it with a reason. What it takes has a valid name, 1…8 links, each
/// named, every number finite; written back (as the server writes looks) it reads as the same
/// look; read as the file `warm.json` it is the same look when it is named `warm`, else refused.
func fuzzLookParser(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    do {
        let look = try LookParser.parse(bytes)
        precondition(Look.isValidName(look.name), "name \(look.name) taken")
        precondition((1...FilterChain.maximumLength).contains(look.chain.count), "\(look.chain.count) links taken")
        for link in look.chain {
            for value in link.params.values {
                if case .number(let number) = value { precondition(number.isFinite, "a number that is not finite taken") }
            }
        }
        let again = try? LookParser.parse(look.encoded(), expectedName: look.name)
        precondition(again == look, "written back, \(look) reads as \(String(describing: again))")
        let asWarm = try? LookParser.parse(bytes, expectedName: "warm")
        precondition(asWarm == (look.name == "warm" ? look : nil), "read as warm.json: \(String(describing: asWarm))")
    } catch {
        precondition(!error.reason.isEmpty, "a refusal without a reason")
    }
    return 0
}
