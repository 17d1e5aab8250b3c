import CastProtocol

/// Which rendition a viewer is given frames from, and whether it chose it itself.
struct Watching: Equatable {
    var transport: FrameTransport
    /// Its index in the offer (`hello.renditions`).
    var rendition: Int
    /// The viewer named the rendition (`watch {rendition: id}`): it is never moved.
    var pinned: Bool

    /// What a client that never says `watch` gets: the first JPEG rendition, as v1 always did.
    static func initial(in offer: [Rendition]) -> Watching {
        Watching(transport: .jpeg, rendition: offer.firstIndex { $0.transport == .jpeg } ?? 0, pinned: false)
    }

    /// What `watch {transport, rendition}` asks for, checked against `offer`.
    static func requested(_ transport: FrameTransport, rendition: String?, in offer: [Rendition]) throws(ProtocolError) -> Watching {
        let candidates = offer.indices.filter { offer[$0].transport == transport }
        guard let first = candidates.first else {
            let offered = Set(offer.map(\.transport.rawValue)).sorted().joined(separator: ", ")
            throw ProtocolError(code: .outOfRange, message: "watch.transport \"\(transport.rawValue)\" is not offered by this server (offered: \(offered))")
        }
        guard let rendition, rendition != "auto" else { return Watching(transport: transport, rendition: first, pinned: false) }
        guard let index = candidates.first(where: { offer[$0].id == rendition }) else {
            let names = (["auto"] + candidates.map { offer[$0].id }).map { "\"\($0)\"" }.joined(separator: ", ")
            throw ProtocolError(code: .outOfRange,
                                message: "watch.rendition must be one of \(names) for \(transport.rawValue), got \"\(rendition.prefix(64))\"")
        }
        return Watching(transport: transport, rendition: index, pinned: true)
    }
}
