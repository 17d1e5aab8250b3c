import CastProtocol
import FilterKit
import Logging

/// Saved looks (`--looks`): the server's, not a channel's. `saveLook` and `deleteLook` are carried
/// out here, every viewer of every channel told the new list (`looks`); `setFilter {look}` is
/// read here into the chain the client's session then applies as any `setFilter {chain}`.
/// Network thread (a save writes its small file here, flushed).
extension ServerCore {
    /// What of `command` a viewer's session of `channel` carries out: the command itself, or for
    /// `setFilter {look}` the look's chain; nil when the look command was carried out here.
    func sessionPart(of command: SessionCommand, on channel: Channel) throws(ProtocolError) -> SessionCommand? {
        switch command {
        case .saveLook(let name, let from):
            let session = channel.session
            let chain = from == .program ? session.selection.chain : try session.studio.requireChain(for: "saveLook from the preview")
            try saveLook(Look(name: name, chain: chain))
            return nil
        case .deleteLook(let name):
            try deleteLook(name)
            return nil
        case .applyLook(let name, let to):
            return .setFilterChain(try look(named: name).chain, to: to)
        default:
            return command
        }
    }

    /// Every viewer, of every channel, is sent the looks as they are now.
    func looksChanged() {
        let entries = (configuration.looks?.all ?? []).map(LookEntry.init)
        for (id, viewer) in viewers {
            viewer.session.looksChanged(entries)
            requestWrite(id)
        }
    }

    private var folder: LookFolder {
        get throws(ProtocolError) {
            guard let looks = configuration.looks else {
                throw ProtocolError(code: .notFound, message: "this server keeps no looks (--looks)")
            }
            return looks
        }
    }

    private func look(named name: String) throws(ProtocolError) -> Look {
        let folder = try folder
        guard let look = folder.look(named: name) else {
            let names = folder.all.prefix(20).map(\.name)
            throw ProtocolError(code: .notFound, message: "no look named '\(name)' ("
                + (names.isEmpty ? "there are none" : "looks: " + names.joined(separator: ", ") + (names.count == 20 ? ", …" : "")) + ")")
        }
        return look
    }

    private func saveLook(_ look: Look) throws(ProtocolError) {
        let folder = try folder
        do throws(LookFolderError) {
            try folder.save(look)
        } catch {
            throw ProtocolError(code: .lookFailed, message: error.description)
        }
        Log.info("look saved", ["name": .string(look.name), "chain": .string(look.chain.map(\.name).joined(separator: " + "))])
        looksChanged()
    }

    private func deleteLook(_ name: String) throws(ProtocolError) {
        let folder = try folder
        let deleted: Bool
        do throws(LookFolderError) {
            deleted = try folder.delete(named: name)
        } catch {
            throw ProtocolError(code: .lookFailed, message: error.description)
        }
        guard deleted else { _ = try look(named: name); return }
        Log.info("look deleted", ["name": .string(name)])
        looksChanged()
    }
}
