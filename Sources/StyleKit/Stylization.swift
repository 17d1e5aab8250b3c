/// One picture the style network painted, at the network's size: the styled Y′, U′ and V′ planes
/// and the reduced planes of the frame they were painted from (its difference from them is what
/// a later frame is composed with: ``StyleScratch/finish(_:styled:madeFrom:strength:detail:)``),
/// and the number of that frame's submission to its ``StyleRefresher``.
///
/// Allocated once per network size. One owner at a time — the worker painting it, the refresher's
/// mailbox (under its lock), or a frame path reading its own copy — which is why it may be
/// `@unchecked Sendable`.
final class Stylization: @unchecked Sendable {
    let size: StyleEngine.NetworkSize
    /// The reduced source's Y, U and V (each `size.width × size.height` floats, 0…255), one after another.
    let source: UnsafeMutableBufferPointer<Float>
    /// The styled Y′, U′ and V′, laid out as ``source``.
    let styled: UnsafeMutableBufferPointer<Float>
    /// The submission it was painted from (``StyleRefresher/submit(_:style:)``); 0 before any.
    var number = 0

    init(size: StyleEngine.NetworkSize) {
        self.size = size
        source = .allocate(capacity: 3 * size.width * size.height)
        styled = .allocate(capacity: 3 * size.width * size.height)
        source.initialize(repeating: 0)
        styled.initialize(repeating: 0)
    }

    deinit {
        source.deallocate()
        styled.deallocate()
    }

    /// Takes `other`'s planes and number (the same size).
    func copy(from other: Stylization) {
        precondition(other.size == size, "stylizations of \(other.size) and \(size)")
        _ = source.update(fromContentsOf: other.source)
        _ = styled.update(fromContentsOf: other.styled)
        number = other.number
    }
}
