extension String {
    /// Levenshtein distance (insertions, deletions, substitutions), for "did you mean" hints.
    func editDistance(to other: String) -> Int {
        let a = Array(self), b = Array(other)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            previous = current
        }
        return previous[b.count]
    }
}

extension String {
    /// The name of `names` nearest to this one, when it is within 3 edits: what a "did you mean"
    /// hint offers for a mistyped option or environment variable.
    func nearest(among names: [String]) -> String? {
        let distances = names.map { (name: $0, distance: editDistance(to: $0)) }
        return distances.min { $0.distance < $1.distance }.flatMap { $0.distance <= 3 ? $0.name : nil }
    }
}
