import FilterKit

/// Filter parameter validation and then the filter itself: the input picks a filter, a frame
/// size up to 40x40, and parameter names and values (any double: NaN, ±∞, huge, tiny). Values
/// that pass validation must lie in their hard range, and the filter must run on the frame.
func fuzzFilterSettings(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    var input = UnsafeRawBufferPointer(start: data, count: size)[...]
    func byte() -> Int? { input.popFirst().map(Int.init) }
    func double() -> Double? {
        guard input.count >= 8 else { return nil }
        defer { input = input.dropFirst(8) }
        return Double(bitPattern: input.prefix(8).reduce(0) { $0 << 8 | UInt64($1) })
    }
    let catalog = FilterCatalog.standard
    guard let pick = byte(), let width = byte(), let height = byte() else { return 0 }
    let descriptor = catalog.descriptors[pick % catalog.descriptors.count]
    var parameters: [String: Double] = [:]
    while let key = byte(), let value = double() {
        // Mostly real parameter names, sometimes an unknown one.
        let name = key < 240 && !descriptor.params.isEmpty ? descriptor.params[key % descriptor.params.count].name : "unknown\(key)"
        parameters[name] = value
    }
    guard let settings = try? FilterSettings(name: descriptor.name, parameters: parameters) else { return 0 }
    for parameter in descriptor.params {
        let value = settings[parameter.name]
        precondition(value.isFinite && parameter.min <= value && value <= parameter.max, "\(settings) escaped validation")
    }
    let frame = Frame(width: width % 40 + 1, height: height % 40 + 1)
    for plane in frame.planes {
        for y in 0..<plane.height { for x in 0..<plane.width { plane.row(y)[x] = UInt8(truncatingIfNeeded: x &* 37 &+ y &* 11) } }
    }
    catalog.makeFilter(settings).apply(to: frame)
    return 0
}
