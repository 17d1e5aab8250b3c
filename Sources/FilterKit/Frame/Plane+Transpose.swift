extension Plane {
    /// Writes the transpose of this plane into `destination` (`height`×`width`): sample (x, y)
    /// goes to (y, x). Done in 32×32 tiles so that both sides stay in cache.
    func transpose(into destination: Plane) {
        precondition(destination.width == height && destination.height == width, "transpose size mismatch")
        let tile = 32
        for top in Swift.stride(from: 0, to: height, by: tile) {
            let bottom = Swift.min(top &+ tile, height)
            for left in Swift.stride(from: 0, to: width, by: tile) {
                for x in left..<Swift.min(left &+ tile, width) {
                    let output = destination.row(x)
                    for y in top..<bottom { output[y] = row(y)[x] }
                }
            }
        }
    }
}
