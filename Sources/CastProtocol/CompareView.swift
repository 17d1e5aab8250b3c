/// The compare view every page follows when a controller shows it to all (`setCompare`,
/// `state.compare`): whether it is on, how the two pictures meet, and where the divider is.
/// Encodes as `{"on": …, "mode": "wipe" | "side-by-side", "split": 0…1}`.
public struct CompareView: Sendable, Equatable, Encodable {
    public var on: Bool
    public var mode: Mode
    /// Where the divider is, as a share of the picture's width from its left edge: 0…1.
    public var split: Double

    /// How the two pictures meet.
    public enum Mode: String, Sendable, Equatable, CaseIterable, Encodable {
        /// One picture, the "before" left of the divider and the "after" right of it.
        case wipe
        /// The two pictures side by side, each whole.
        case sideBySide = "side-by-side"
    }

    /// What the compare view is until a controller changes it: off, a wipe, the divider halfway.
    public static let initial = CompareView(on: false, mode: .wipe, split: 0.5)

    /// The divider's positions.
    public static let splits: ClosedRange<Double> = 0...1

    public init(on: Bool, mode: Mode, split: Double) {
        self.on = on
        self.mode = mode
        self.split = split
    }

    /// This view with `change` applied: the fields it gives replace these, the others stay.
    public func changed(by change: Change) -> CompareView {
        CompareView(on: change.on, mode: change.mode ?? mode, split: change.split ?? split)
    }

    /// What a `setCompare` asks for: `on`, and `mode` and `split` when it gives them (already
    /// checked: a known mode, a split in ``splits``).
    public struct Change: Sendable, Equatable {
        public var on: Bool
        public var mode: Mode?
        public var split: Double?

        public init(on: Bool, mode: Mode? = nil, split: Double? = nil) {
            self.on = on
            self.mode = mode
            self.split = split
        }
    }
}

extension CommandFields {
    /// `setCompare`'s fields: `on` (required, a boolean), `mode` (optional: `"wipe"` or
    /// `"side-by-side"`), `split` (optional: a finite number in 0…1).
    func compareChange() throws(ProtocolError) -> CompareView.Change {
        guard let on = try boolean("on") else { throw missing("on", "true or false") }
        let mode = fields["mode"] == nil ? nil : try choice("mode", of: CompareView.Mode.allCases.map(\.rawValue))
        var split: Double?
        if fields["split"] != nil {
            let expected = "a number in 0…1 (a share of the picture's width)"
            let value = try number("split", atLeast: CompareView.splits.lowerBound, expected)
            guard value <= CompareView.splits.upperBound else { throw outOfRange("split", expected, got: fields["split"]!) }
            split = value
        }
        return CompareView.Change(on: on, mode: mode.flatMap(CompareView.Mode.init(rawValue:)), split: split)
    }
}
