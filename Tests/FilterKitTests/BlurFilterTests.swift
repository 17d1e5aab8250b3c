import Testing
@testable import FilterKit

/// The blur filters are not in the standard catalog yet, so the tests validate their settings
/// against a catalog of their own.
private let blurCatalog = FilterCatalog([.init(NoFilter.self), .init(BoxBlurFilter.self), .init(GaussianBlurFilter.self)])

/// The radius parameter (in pixels of a 1080-line frame) that is `pixels` on frames of `height` lines.
private func reference(_ pixels: Double, height: Int) -> Double { pixels * 1080 / Double(height) }

/// A box blur of radius `radius` pixels on frames of `height` lines.
private func boxBlur(_ radius: Int, height: Int) throws -> BoxBlurFilter {
    BoxBlurFilter(settings: try FilterSettings(name: "boxBlur", parameters: ["radius": reference(Double(radius), height: height)],
                                               catalog: blurCatalog))
}

/// A Gaussian blur of radius `radius` pixels (sigma `radius / 2`) on frames of `height` lines.
private func gaussianBlur(_ radius: Double, height: Int) throws -> GaussianBlurFilter {
    GaussianBlurFilter(settings: try FilterSettings(name: "gaussianBlur", parameters: ["radius": reference(radius, height: height)],
                                                    catalog: blurCatalog))
}

/// Both blurs at `radius` pixels on frames of `height` lines.
private func blurs(_ radius: Int, height: Int) throws -> [any FrameFilter] {
    [try boxBlur(radius, height: height), try gaussianBlur(Double(radius), height: height)]
}

/// The two blur kernels at `radius` samples on every plane, beyond what the parameter reaches (at
/// most a tenth of the frame height): a box blur and the Gaussian's stacked boxes (sigma radius / 2).
private func kernelBlurs(_ radius: Int) -> [(name: String, apply: (Frame) -> Void)] {
    let scratch = BlurScratch(), boxes = GaussianBlurFilter.boxRadii(sigma: Double(radius) / 2)
    return [
        ("box", { frame in
            scratch.prepare(width: frame.width, height: frame.height)
            for plane in frame.planes { scratch.blur(plane, with: BoxStack(radius)) }
        }),
        ("gaussian", { frame in
            scratch.prepare(width: frame.width, height: frame.height)
            for plane in frame.planes { scratch.blur(plane, with: BoxStack(boxes.0, boxes.1, boxes.2)) }
        }),
    ]
}

private func mean(_ plane: Plane) -> Double {
    Double(plane.samples.reduce(0) { $0 + Int($1) }) / Double(plane.width * plane.height)
}

private func variance(_ plane: Plane) -> Double {
    let m = mean(plane)
    return plane.samples.reduce(0.0) { $0 + (Double($1) - m) * (Double($1) - m) } / Double(plane.width * plane.height)
}

/// The rounded mean of the (2r+1)² box around each sample, samples outside clamped to the edge.
private func referenceBoxBlur(_ plane: Plane, radius r: Int) -> [UInt8] {
    var result: [UInt8] = []
    for y in 0..<plane.height {
        for x in 0..<plane.width {
            var sum = 0
            for dy in -r...r {
                for dx in -r...r {
                    sum += Int(plane[min(max(x + dx, 0), plane.width - 1), min(max(y + dy, 0), plane.height - 1)])
                }
            }
            let count = (2 * r + 1) * (2 * r + 1)
            result.append(UInt8((sum + count / 2) / count))
        }
    }
    return result
}

@Suite("Blur filters")
struct BlurFilterTests {
    @Test("Radius 0 leaves random frames unchanged, bit for bit",
          arguments: [Size(17, 11), Size(1, 1), Size(2, 3)])
    func identity(size: Size) throws {
        for filter in try blurs(0, height: size.height) {
            let original = Frame.random(width: size.width, height: size.height, seed: 5)
            let frame = original.clone()
            filter.apply(to: frame)
            #expect(frame.samples == original.samples, "\(type(of: filter))")
        }
    }

    @Test("A flat frame stays flat, exactly", arguments: [1, 3, 10, 100])
    func flat(radius: Int) throws {
        for blur in kernelBlurs(radius) {
            for size in Size.testSizes + [Size(64, 36)] {
                let frame = Frame.filled(width: size.width, height: size.height, y: 201, u: 17, v: 240)
                blur.apply(frame)
                #expect(frame.y.samples.allSatisfy { $0 == 201 }, "\(blur.name) \(size)")
                #expect(frame.u.samples.allSatisfy { $0 == 17 }, "\(blur.name) \(size)")
                #expect(frame.v.samples.allSatisfy { $0 == 240 }, "\(blur.name) \(size)")
            }
        }
    }

    @Test("Odd and tiny sizes, radius far beyond the frame: flat stays flat, nothing out of bounds",
          arguments: [Size(1, 1), Size(2, 3), Size(7, 5), Size(1, 9), Size(9, 1), Size(3, 2)])
    func tinyFrames(size: Size) throws {
        for blur in kernelBlurs(100) {
            let frame = Frame.random(width: size.width, height: size.height, seed: 11)
            blur.apply(frame)
            blur.apply(Frame.random(width: size.width + 2, height: size.height + 1, seed: 12))
            let flat = Frame.filled(width: size.width, height: size.height, y: 99)
            blur.apply(flat)
            #expect(flat.y.samples.allSatisfy { $0 == 99 })
        }
    }

    /// Clamped edges weigh the border samples more, so the frame is large next to the radius.
    @Test("The mean of a random frame is preserved within ±1", arguments: [1, 4, 10, 16])
    func meanPreserved(radius: Int) throws {
        for filter in try blurs(radius, height: 192) {
            let original = Frame.random(width: 256, height: 192, seed: UInt64(radius))
            let frame = original.clone()
            filter.apply(to: frame)
            for (before, after) in zip(original.planes, frame.planes) {
                #expect(abs(mean(after) - mean(before)) <= 1, "\(type(of: filter)) radius \(radius)")
            }
        }
    }

    @Test("A single bright pixel spreads into a symmetric kernel holding its energy", arguments: [2, 3, 5, 8])
    func impulse(radius: Int) throws {
        let size = 121, centre = 60
        for filter in try blurs(radius, height: size) {
            let frame = Frame.filled(width: size, height: size, y: 0)
            frame.y[centre, centre] = 255
            filter.apply(to: frame)
            var energy = 0, nonzero = 0
            for y in 0..<size {
                for x in 0..<size {
                    let value = frame.y[x, y]
                    energy += Int(value)
                    if value > 0 { nonzero += 1 }
                    // Symmetric under reflection in both axes.
                    #expect(value == frame.y[2 * centre - x, y])
                    #expect(value == frame.y[x, 2 * centre - y])
                }
            }
            #expect(frame.y[centre, centre] < 255 && frame.y[centre, centre] > 0)
            // Each pass rounds every sample by at most ½; the kernel covers `nonzero` samples.
            #expect(abs(energy - 255) <= nonzero / 2 + 1, "\(type(of: filter)) radius \(radius): \(energy)")
        }
    }

    @Test("The largest radius on a 2160-line frame: a box of 401 rows, three Gaussian boxes")
    func largestRadiusAt4K() throws {
        let original = Frame.random(width: 8, height: 2160, seed: 12)
        for filter in [try boxBlur(200, height: 2160) as any FrameFilter, try gaussianBlur(200, height: 2160)] {
            let frame = original.clone()
            filter.apply(to: frame)
            #expect(variance(frame.y) < variance(original.y) / 10, "\(type(of: filter)) smooths")
        }
    }

    @Test("Radii are pixels of a 1080-line frame, scaled with the frame height")
    func radiiScale() throws {
        let box = try boxBlur(10, height: 1080), gaussian = try gaussianBlur(10, height: 1080)
        for (height, luma, chroma) in [(1080, 10, 5), (540, 5, 3), (2160, 20, 10), (240, 2, 1), (11, 0, 0)] {
            let frame = Frame(width: 4, height: height)
            let radii = box.pixelRadii(for: frame)
            #expect(radii.luma == luma && radii.chroma == chroma, "height \(height): \(radii)")
            let sigma = 5 * Double(height) / 1080
            let boxes = gaussian.boxRadii(for: frame)
            #expect(boxes.luma == GaussianBlurFilter.boxRadii(sigma: sigma), "height \(height)")
            #expect(boxes.chroma == GaussianBlurFilter.boxRadii(sigma: sigma / 2), "height \(height)")
        }
    }

    @Test("The box blur kernel matches a brute-force clamped box mean within ±1",
          arguments: [1, 2, 3, 7, 20], [Size(17, 11), Size(7, 5), Size(2, 3), Size(1, 1)])
    func boxReference(radius: Int, size: Size) throws {
        let original = Frame.random(width: size.width, height: size.height, seed: UInt64(radius * 31 + size.width))
        let frame = original.clone()
        let scratch = BlurScratch()
        scratch.prepare(width: size.width, height: size.height)
        scratch.blur(frame.y, with: BoxStack(radius))
        scratch.blur(frame.u, with: BoxStack((radius + 1) / 2))
        let expectedLuma = referenceBoxBlur(original.y, radius: radius)
        let expectedChroma = referenceBoxBlur(original.u, radius: (radius + 1) / 2)
        var exact = 0
        for (got, expected) in zip(frame.y.samples, expectedLuma) {
            #expect(abs(Int(got) - Int(expected)) <= 1)
            if got == expected { exact += 1 }
        }
        for (got, expected) in zip(frame.u.samples, expectedChroma) {
            #expect(abs(Int(got) - Int(expected)) <= 1)
        }
        // The two passes round separately, so a few samples may be off by one: most are exact.
        #expect(expectedLuma.count < 30 || exact * 10 >= expectedLuma.count * 7, "\(exact) of \(expectedLuma.count) exact")
    }

    /// Clamped edges weigh the border samples more, so the frame is large next to the radius.
    /// (Gaussian radius 1 is sigma 0.5: three boxes of width 1, the identity; it starts at 2.)
    @Test("A larger radius gives a smoother frame: variance falls monotonically")
    func smoother() throws {
        let original = Frame.random(width: 256, height: 192, seed: 3)
        for make in [{ try boxBlur($0, height: 192) as any FrameFilter },
                     { try gaussianBlur(Double($0), height: 192) as any FrameFilter }] {
            var previous = variance(original.y)
            for radius in [2, 3, 4, 6, 8, 12, 16] {
                let frame = original.clone()
                try make(radius).apply(to: frame)
                let current = variance(frame.y)
                #expect(current < previous, "radius \(radius): \(current) after \(previous)")
                previous = current
            }
        }
    }

    @Test("The Gaussian's boxes have the variance of sigma = radius / 2")
    func gaussianBoxes() {
        #expect(GaussianBlurFilter.boxRadii(sigma: 0) == (0, 0, 0))
        for sigma in [1.0, 2.5, 5, 12.5, 50] {
            let (a, b, c) = GaussianBlurFilter.boxRadii(sigma: sigma)
            // A box of radius r has variance ((2r+1)² − 1) / 12 = r(r+1)/3.
            let stacked = Double(a * (a + 1) + b * (b + 1) + c * (c + 1)) / 3
            #expect(abs(stacked.squareRoot() - sigma) <= 0.25 + sigma * 0.05, "sigma \(sigma): \(stacked.squareRoot())")
        }
    }

    @Test("The branch-free rounded division is exact for every odd divisor of the blurs")
    func roundedQuotient() {
        var generator = SplitMix64(seed: 1)
        for divisor in [1, 3, 5, 7, 99, 101, 201, 9 * 11 * 13, 99 * 101 * 101, 101 * 101 * 101, 239 * 241 * 241,
                        241 * 241 * 241] {
            let reciprocal = 1 / Double(divisor)
            let limit = UInt32(255 * divisor)
            var samples: [UInt32] = [0, limit]
            for k in 0..<256 {
                let multiple = UInt32(k * divisor), half = UInt32(divisor / 2)
                samples += [multiple, multiple + half, min(multiple + half + 1, limit)]
            }
            samples += (0..<2000).map { _ in UInt32.random(in: 0...limit, using: &generator) }
            for n in samples {
                let expected = UInt8((Int(n) + divisor / 2) / divisor)
                #expect(BoxBlurKernel.roundedQuotient(n, reciprocal: reciprocal) == expected, "\(n) / \(divisor)")
            }
        }
    }

    @Test("Scratch planes follow the frame size: a blur reused across sizes matches a fresh one")
    func sizeChanges() throws {
        let reused = try gaussianBlur(3.5, height: 40)
        for size in [Size(64, 36), Size(7, 5), Size(33, 40)] {
            let a = Frame.random(width: size.width, height: size.height, seed: 9)
            let b = a.clone()
            reused.apply(to: a)
            try gaussianBlur(3.5, height: 40).apply(to: b)
            #expect(a.samples == b.samples)
        }
    }
}
