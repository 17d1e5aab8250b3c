import CastProtocol

/// What the processing loop does in one turn, decided from what happened — a frame arrived or
/// not, the source online or not, a placeholder or a re-render due — and what each output wants.
/// Pure: the loop computes it with ``make(_:demands:)`` and only executes it.
///
/// Outputs are named by their index in the `demands` array; each list keeps that order.
/// `second` lists the outputs of each second picture (``OutputDemand/second``), only those some
/// output wants.
enum FramePlan: Equatable, Sendable {
    /// Nothing to do this turn.
    case idle
    /// A new source frame: hand it as it is to `source`, then filter it once and hand it to
    /// `filtered` (when that is empty, the frame is not filtered at all), then the second
    /// pictures: through the preview's chain to `second[.preview]` (if the loop keeps up), as it
    /// is to `second[.source]`.
    case deliver(source: [Int], filtered: [Int], second: [SecondPicture: [Int]] = [:])
    /// No new frame: hand the last source frame again, as it is to `source`, then filtered (once)
    /// to `filtered`, then the second pictures.
    case rerender(source: [Int], filtered: [Int], second: [SecondPicture: [Int]] = [:])
    /// The source is offline: render the placeholder for `outputs`.
    case placeholder(outputs: [Int])

    /// What happened since the last turn.
    struct Situation: Equatable, Sendable {
        /// A source frame arrived.
        var hasFrame = false
        /// The source delivers (false while a live source reconnects or after playback failed).
        var isOnline = true
        /// Offline: a second has passed since the last placeholder.
        var placeholderDue = false
        /// A re-render was asked for (and not yet served).
        var rerenderRequested = false
        /// A re-render of the preview alone was asked for (its chain changed): the program's
        /// outputs are not sent the same picture again.
        var previewRerenderRequested = false
        /// A source frame was kept to re-render (none before the first, none after a coast).
        var hasLastFrame = false
    }

    /// The plan for `situation`, given each output's demand (in output order).
    ///
    /// Order of the rules: a new frame is delivered (to whoever wants it, perhaps nobody);
    /// without one, an offline source gets a placeholder when one is due or a re-render was
    /// asked for; an online one gets the re-render, if asked for and there is a frame to redo —
    /// for the preview's outputs alone when only the preview's was asked for. The source's picture
    /// is re-rendered with the program's (a newcomer), never for a chain's change alone.
    static func make(_ situation: Situation, demands: [OutputDemand]) -> FramePlan {
        func wanting(_ want: (OutputDemand) -> Bool) -> [Int] { demands.indices.filter { want(demands[$0]) } }
        // Each second picture shown this turn, and its outputs that want a frame (a new one, or a re-render).
        func seconds(_ shown: (SecondPicture) -> Bool) -> [SecondPicture: [Int]] {
            var lists: [SecondPicture: [Int]] = [:]
            for picture in SecondPicture.allCases where shown(picture) {
                let outputs = wanting { $0.second == picture && (situation.hasFrame ? $0.filtered : $0.rerender && !$0.source) }
                if !outputs.isEmpty { lists[picture] = outputs }
            }
            return lists
        }
        if situation.hasFrame {
            return .deliver(source: wanting(\.source), filtered: wanting { $0.filtered && $0.second == nil }, second: seconds { _ in true })
        }
        if !situation.isOnline {
            let outputs = wanting(\.placeholder)
            guard situation.placeholderDue || situation.rerenderRequested, !outputs.isEmpty else { return .idle }
            return .placeholder(outputs: outputs)
        }
        let program = situation.rerenderRequested, preview = program || situation.previewRerenderRequested
        guard preview, situation.hasLastFrame else { return .idle }
        let source = wanting { program && $0.rerender && $0.source }
        let filtered = wanting { program && $0.rerender && !$0.source && $0.second == nil }
        let second = seconds { $0 == .preview || program }
        guard !(source.isEmpty && filtered.isEmpty && second.isEmpty) else { return .idle }
        return .rerender(source: source, filtered: filtered, second: second)
    }
}
