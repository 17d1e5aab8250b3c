import Testing
import FilterKit

/// Every filter in the catalog, at its defaults and at each parameter's extremes, on frame sizes
/// from 1x1 to 4096x2160, odd ones included. A filter must not touch memory outside the visible
/// samples (the row padding is checked here; run once under AddressSanitizer for the rest), and
/// one instance reused across sizes must give what a fresh instance gives (rebuilt maps and
/// scratch buffers really follow the size).
@Suite("Frame size sweep")
struct SizeSweepTests {
    /// Defaults, then each parameter at its hard minimum and maximum with the others at default.
    static let extremeSettings: [FilterSettings] = FilterCatalog.standard.descriptors.flatMap { descriptor in
        var all = [try! FilterSettings(name: descriptor.name)]
        for parameter in descriptor.params {
            for value in [parameter.min, parameter.max] where value != parameter.default {
                all.append(try! FilterSettings(name: descriptor.name, parameters: [parameter.name: value]))
            }
        }
        return all
    }

    static let defaultSettings: [FilterSettings] = FilterCatalog.standard.names.map { try! FilterSettings(name: $0) }

    static let smallSizes = [Size(1, 1), Size(2, 2), Size(3, 3), Size(2, 7), Size(7, 2), Size(3, 5), Size(5, 3),
                             Size(17, 9), Size(64, 1), Size(1, 64), Size(33, 65), Size(130, 67)]

    @Test("Small and odd sizes, parameters at their extremes", arguments: extremeSettings)
    func smallSizes(settings: FilterSettings) {
        let reused = FilterCatalog.standard.makeFilter(settings)
        for size in Self.smallSizes + Self.smallSizes.reversed() {
            let original = Frame.random(width: size.width, height: size.height, seed: UInt64(size.width * 131 + size.height))
            let frame = original.clone()
            frame.fillPadding(0xA5)
            reused.apply(to: frame)
            #expect(frame.paddingIsIntact(0xA5), "\(settings) wrote outside the visible samples at \(size)")
            let fresh = original.clone()
            FilterCatalog.standard.makeFilter(settings).apply(to: fresh)
            #expect(frame.samples == fresh.samples, "\(settings) at \(size): a reused instance differs from a fresh one")
        }
    }

    /// Made once: filling 4K frames with random samples costs more than filtering them.
    static let largeFrames = [Size(4096, 2160), Size(1921, 1081)].map { Frame.random(width: $0.width, height: $0.height, seed: 7) }

    @Test("Large and odd sizes up to 4096x2160, defaults", arguments: defaultSettings)
    func largeSizes(settings: FilterSettings) {
        let filter = FilterCatalog.standard.makeFilter(settings)
        for original in Self.largeFrames {
            let frame = original.clone()
            let size = Size(frame.width, frame.height)
            frame.fillPadding(0x5A)
            filter.apply(to: frame)
            #expect(frame.paddingIsIntact(0x5A), "\(settings) wrote outside the visible samples at \(size)")
        }
    }
}

extension Frame {
    /// Sets the bytes between each row's last visible sample and the next row to `value`.
    func fillPadding(_ value: UInt8) {
        for plane in planes {
            for y in 0..<plane.height {
                (plane.row(y) + plane.width).update(repeating: value, count: plane.stride - plane.width)
            }
        }
    }

    /// Whether every padding byte still holds `value`.
    func paddingIsIntact(_ value: UInt8) -> Bool {
        planes.allSatisfy { plane in
            (0..<plane.height).allSatisfy { y in
                UnsafeBufferPointer(start: plane.row(y) + plane.width, count: plane.stride - plane.width).allSatisfy { $0 == value }
            }
        }
    }
}
