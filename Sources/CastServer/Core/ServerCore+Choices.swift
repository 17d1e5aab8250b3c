import CastProtocol
import FilterKit
import Logging

/// `DELETE /api/luts/NAME`, `DELETE /api/styles/NAME` and `DELETE /api/backgrounds/NAME` (control), at once: a choice that a chain
/// in force uses — a channel's program or preview — is 409 naming where (choose another there
/// first: a picture on air never changes by itself); else its file is removed, then its choice,
/// every chain is validated again (the choices after it moved up one) and every viewer is sent the
/// catalog.
extension ServerCore {
    func deleteLUT(_ name: String) -> HTTPAnswer {
        guard let luts = configuration.luts else { return .status(404, "this server has no LUT folder (--luts)") }
        guard LUTLibrary.isValidName(name) else { return .status(400, LUTLibraryError.badName(name).description) }
        return removeChoice(name, of: LUTFilter.descriptor.name, noun: "LUT") { luts.remove(name) }
    }

    func deleteStyle(_ name: String) -> HTTPAnswer {
        guard let styles = configuration.styles else { return .status(404, "this server has no style folder (--styles)") }
        return removeChoice(name, of: "style", noun: "style") { styles.remove(name) }
    }

    func deleteBackground(_ name: String) -> HTTPAnswer {
        guard let backgrounds = configuration.backgrounds else {
            return .status(404, "this server has no person matte (backgroundReplace), so no backgrounds")
        }
        return removeChoice(name, of: "backgroundReplace", parameter: "background", noun: "background") { backgrounds.remove(name) }
    }

    /// Removes the choice `name` of filter `filter`'s parameter `parameter` (by default the
    /// filter's name) by `remove`, unless a chain in force uses it.
    private func removeChoice(_ name: String, of filter: String, parameter: String? = nil, noun: String,
                              remove: () -> ShelfRefusal?) -> HTTPAnswer {
        let users = chains(using: name, of: filter, parameter: parameter ?? filter)
        guard users.isEmpty else {
            return .status(409, "the \(noun) '\(name)' is in use by \(users.joined(separator: ", ")): choose another \(noun) there first")
        }
        if let refusal = remove() { return .status(refusal.status, refusal.description) }
        Log.info("\(noun) deleted", ["name": .string(name)])
        for channel in channels.all where channel.session.catalogChoicesMoved() { broadcastState(channel) }
        catalogChanged()
        return .json(encoding: ["deleted": name])
    }

    /// Where a chain in force chooses `name` for `filter`'s `parameter`: "channel NAME's program"
    /// (or preview).
    private func chains(using name: String, of filter: String, parameter: String) -> [String] {
        channels.all.flatMap { channel in
            ChainTarget.allCases.compactMap { target -> String? in
                let chain = target == .program ? channel.session.selection.chain : channel.session.studio.previewChain
                let uses = chain?.links.contains { $0.name == filter && $0.choices[parameter] == name } ?? false
                return uses ? "channel \(channel.name)'s \(target.rawValue)" : nil
            }
        }
    }
}
