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
        Watching(transport: .jpeg, rendition: offer.firstIndex { $0.transport == .jpeg && $0.isProgram } ?? 0, pinned: false)
    }

    /// What `watch {transport, rendition}` asks for, checked against `offer`. A second picture's
    /// rendition only when named; the preview's only for a client that `controls`.
    static func requested(_ transport: FrameTransport, rendition: String?, in offer: [Rendition],
                          controls: Bool = true) throws(ProtocolError) -> Watching {
        let all = offer.indices.filter { offer[$0].transport == transport }
        let candidates = all.filter { offer[$0].isProgram }
        guard let first = candidates.first else {
            let offered = Set(offer.map(\.transport.rawValue)).sorted().joined(separator: ", ")
            throw ProtocolError(code: .outOfRange, message: "watch.transport \"\(transport.rawValue)\" is not offered by this server (offered: \(offered))")
        }
        guard let rendition, rendition != "auto" else { return Watching(transport: transport, rendition: first, pinned: false) }
        guard let index = all.first(where: { offer[$0].id == rendition }) else {
            let names = (["auto"] + all.map { offer[$0].id }).map { "\"\($0)\"" }.joined(separator: ", ")
            throw ProtocolError(code: .outOfRange,
                                message: "watch.rendition must be one of \(names) for \(transport.rawValue), got \"\(rendition.prefix(64))\"")
        }
        guard controls || !offer[index].isPreview else {
            throw ProtocolError(code: .unauthorized, message: "watch.rendition \"\(rendition)\" is the preview: only a client that may control watches it")
        }
        return Watching(transport: transport, rendition: index, pinned: true)
    }
}
