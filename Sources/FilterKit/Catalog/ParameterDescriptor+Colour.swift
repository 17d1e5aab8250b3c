/// A colour as three parameters, one per RGB channel, each 0…1: the false-colour and monochrome
/// filters' colours.
extension ParameterDescriptor {
    /// `prefix`'s three channels: `prefixRed`, `prefixGreen`, `prefixBlue` (`red`, `green`, `blue`
    /// without a prefix), labelled "`label` red" and so on ("Red" without a label).
    static func colour(_ prefix: String = "", label: String = "", default colour: (r: Double, g: Double, b: Double))
        -> [ParameterDescriptor] {
        [("Red", colour.r), ("Green", colour.g), ("Blue", colour.b)].map { channel, value in
            ParameterDescriptor(name: prefix.isEmpty ? channel.lowercased() : prefix + channel,
                                label: label.isEmpty ? channel : "\(label) \(channel.lowercased())",
                                default: value, min: 0, max: 1, step: 0.01)
        }
    }
}

extension FilterSettings {
    /// The colour the parameters of ``ParameterDescriptor/colour(_:label:default:)`` with `prefix` hold.
    func colour(_ prefix: String = "") -> (r: Double, g: Double, b: Double) {
        let name = { (channel: String) in prefix.isEmpty ? channel.lowercased() : prefix + channel }
        return (self[name("Red")], self[name("Green")], self[name("Blue")])
    }
}
