/// CIBumpDistortion.
public typealias BumpFilter = RadialDistortionFilter<Bump>

/// A lens bulging out of the picture (`scale` > 0, magnifying the middle) or pressed into it
/// (`scale` < 0, shrinking it). A point at `u` × radius from the centre takes its colour from
/// the point at `1 − scale × (1 − u²)²` times that distance: smooth at the circle, and
/// monotonic (no fold) for every scale in −1…1.
public enum Bump: RadialWarp {
    public static let name = "bump"
    public static let label = "Bump"
    public static let strength = ParameterDescriptor(name: "scale", label: "Scale", default: 0.5, min: -1, max: 1,
                                                     step: 0.01, identity: 0)

    public static func factor(at u: Double, strength scale: Double) -> (re: Double, im: Double) {
        (1 - scale * (1 - u * u) * (1 - u * u), 0)
    }
}
