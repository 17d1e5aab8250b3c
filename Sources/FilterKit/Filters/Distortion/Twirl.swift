import Foundation

/// CITwirlDistortion.
public typealias TwirlFilter = RadialDistortionFilter<Twirl>

/// Turns the picture around the centre, by `angle` at the centre and less and less towards the
/// circle, where it stops: a point at `u` × radius from the centre takes its colour from the
/// point turned by `angle × (1 − u)²` about the centre, so the twist fades out smoothly.
/// Positive angles turn the picture counterclockwise on screen (Core Image's sense of angles).
public enum Twirl: RadialWarp {
    public static let name = "twirl"
    public static let label = "Twirl"
    public static let strength = ParameterDescriptor(
        name: "angle", label: "Angle", type: .angle, default: .pi, min: -8 * .pi, max: 8 * .pi,
        // One-degree steps from −4π put the default (π) and the identity (0) on the slider's grid.
        sliderMin: -4 * .pi, sliderMax: 4 * .pi, step: .pi / 180, identity: 0)

    public static func factor(at u: Double, strength angle: Double) -> (re: Double, im: Double) {
        let turn = angle * (1 - u) * (1 - u)
        return (cos(turn), sin(turn))
    }
}
