extension String {
    /// Edits from this string to `other` — insertions, deletions, substitutions and swaps of two
    /// neighbours (`--prot` → `--port` is one) — for "did you mean" hints.
    func editDistance(to other: String) -> Int {
        let a = Array(self), b = Array(other)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var beforePrevious = [Int](), previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, substitution)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = Swift.min(current[j], beforePrevious[j - 2] + 1)
                }
            }
            (beforePrevious, previous) = (previous, current)
        }
        return previous[b.count]
    }
}

extension String {
    /// The name of `names` nearest to this one, when it is a plausible typo of it: within a third
    /// of this name's letters (dashes aside), at least 1 and at most 3 edits — so `--bogus` is
    /// nobody's typo of `--looks`, three letters apart.
    func nearest(among names: [String]) -> String? {
        let letters = drop { $0 == "-" }.count
        let bound = Swift.min(3, Swift.max(1, letters / 3))
        let distances = names.map { (name: $0, distance: editDistance(to: $0)) }
        return distances.min { $0.distance < $1.distance }.flatMap { $0.distance <= bound ? $0.name : nil }
    }
}
