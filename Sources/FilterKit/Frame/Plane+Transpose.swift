extension Plane {
    /// Writes the transpose of rows `rows` (all by default) of this plane into `destination`
    /// (`height`×`width`): sample (x, y) goes to (y, x), so the rows become columns `rows` there.
    /// Done in 32×32 tiles so that both sides stay in cache.
    func transpose(into destination: Plane, rows: Range<Int>? = nil) {
        precondition(destination.width == height && destination.height == width, "transpose size mismatch")
        let tile = 32, rows = rows ?? 0..<height
        for top in Swift.stride(from: rows.lowerBound, to: rows.upperBound, by: tile) {
            let bottom = Swift.min(top &+ tile, rows.upperBound)
            for left in Swift.stride(from: 0, to: width, by: tile) {
                for x in left..<Swift.min(left &+ tile, width) {
                    let output = destination.row(x)
                    for y in top..<bottom { output[y] = row(y)[x] }
                }
            }
        }
    }
}
