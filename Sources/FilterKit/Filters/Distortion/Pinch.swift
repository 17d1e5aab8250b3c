import Foundation

/// CIPinchDistortion.
public typealias PinchFilter = RadialDistortionFilter<Pinch>

/// Pulls the picture towards the centre, most strongly in the middle. A point at `u` × radius
/// from the centre takes its colour from the point at `sin(π/2 · u)^(−scale/2)` times that
/// distance (GIMP's pinch): farther out, smooth at the circle, and monotonic for every scale in
/// 0…2; at 2 the centre shows the ring at 2/π × radius.
public enum Pinch: RadialWarp {
    public static let name = "pinch"
    public static let label = "Pinch"
    public static let strength = ParameterDescriptor(name: "scale", label: "Scale", default: 0.5, min: 0, max: 2,
                                                     step: 0.01, identity: 0)

    public static func factor(at u: Double, strength scale: Double) -> (re: Double, im: Double) {
        // The centre itself stays (the factor is infinite there, the offset 0).
        u > 0 ? (pow(sin(.pi / 2 * u), -scale / 2), 0) : (1, 0)
    }
}
