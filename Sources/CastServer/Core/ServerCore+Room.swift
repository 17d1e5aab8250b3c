import CastProtocol
import Foundation

/// The review room of each channel (``ChannelRoom``): people join and leave with their
/// connections, every change to the shared state is attributed (`changedBy`, `activity`), one
/// person may present, and controllers' pointers are relayed. Service thread only.
extension ServerCore {
    /// `channel`'s room, made when its first viewer comes.
    func room(of channel: Channel) -> ChannelRoom {
        if let room = rooms[channel.name] { return room }
        let room = ChannelRoom()
        rooms[channel.name] = room
        return room
    }

    /// Viewer `id` of `channel` came with `?person=` `person` and `?name=` `name` (checked here:
    /// a bad one is refused with an error after its hello, and the person keeps their name).
    func joinRoom(_ id: ConnectionID, _ viewer: ViewerSession, channel: Channel, person: String?, name: String?) {
        var checked: String?
        if let name {
            do throws(ProtocolError) {
                checked = try PersonName.validated(name, field: "?name=")
            } catch {
                viewer.tell(ServerMessage.error(error).encoded())
            }
        }
        let room = room(of: channel)
        let key = room.presence.join(id, key: person, name: checked)
        if let author = room.presence.person(of: id)?.author { room.presenter.renamed(key, author) }
    }

    /// Viewer `id` left `channel`: when it was its person's last connection they leave the room,
    /// giving up presenting.
    func leaveRoom(_ id: ConnectionID, channel: Channel) {
        guard let room = rooms[channel.name], let (key, person) = room.presence.leave(id) else { return }
        room.pointerRates[key] = nil
        if room.presenter.left(key) {
            attribute(.present(take: false, force: false), as: "present", by: person.author, on: channel)
            tellActivity(channel)
        }
    }

    /// Viewer `id` is called `name` from now on.
    func rename(_ id: ConnectionID, channel: Channel, to name: String) {
        let room = room(of: channel)
        room.presence.rename(id, to: name)
        if let key = room.presence.key(of: id), let author = room.presence.person(of: id)?.author {
            room.presenter.renamed(key, author)
        }
    }

    /// The room's part of `command` of viewer `id`, sent as `type`: `present`, `point` and
    /// `comment` are carried out here (true: nothing is left for the session), and attributed
    /// when they changed something; a playback command while someone else presents is refused
    /// (`not_presenter`).
    func applyInRoom(_ command: SessionCommand, as type: String, from id: ConnectionID,
                     _ connection: ViewerConnection) throws(ProtocolError) -> Bool {
        let room = room(of: connection.channel)
        guard let key = room.presence.key(of: id), let author = room.presence.person(of: id)?.author else { return false }
        switch command {
        case .present(let take, let force):
            let changed = take ? try room.presenter.take(by: key, author: author, admin: connection.session.level == .admin, force: force)
                               : try room.presenter.release(by: key)
            if changed { attribute(command, as: type, by: author, on: connection.channel) }
            return true
        case .point(let position):
            if room.pointerRates[key, default: PointerRate()].admit(now: now()) { relayPointer(by: author, at: position, on: connection.channel) }
            return true
        case .comment(let comment):
            let about = try applyComment(comment, by: author, admin: connection.session.level == .admin, on: connection.channel, from: id)
            attribute(command, as: type, by: author, on: connection.channel, about: about)
            return true
        default:
            try room.presenter.admit(type, from: key)
            return false
        }
    }

    /// `command` of viewer `id`, sent as `type`, changed its channel's shared state: `changedBy`
    /// and an `activity` whose `what` is `type`.
    func attribute(_ command: SessionCommand, as type: String, from id: ConnectionID) {
        guard let channel = viewers[id]?.channel, let author = rooms[channel.name]?.presence.person(of: id)?.author else { return }
        attribute(command, as: type, by: author, on: channel)
    }

    /// `about`: the comment a `comment` command added or changed (as it was before a delete).
    private func attribute(_ command: SessionCommand, as type: String, by author: Author, on channel: Channel, about: Comment? = nil) {
        let room = room(of: channel)
        room.changedBy = author
        let entry = change(command, as: type, by: author, on: channel, about: about)
        if let entry = room.activity.record(entry, burst: command.burstKey, now: now()) {
            room.due.append(entry)
        }
    }

    /// Four times a second: the bursts of `channel`'s activity whose window closed with a newer value.
    func flushActivity(_ channel: Channel) {
        guard let room = rooms[channel.name] else { return }
        room.due += room.activity.flush(now: now())
        tellActivity(channel)
    }

    /// `state.people`, `state.presenter`, `state.changedBy`, and `viewers` counting people (a
    /// channel nobody joined yet, or one removed, has an empty room: none is made for it).
    func addRoom(to state: inout SessionState, of channel: Channel) {
        let room = rooms[channel.name] ?? ChannelRoom()
        state.viewers = room.presence.count
        state.people = room.presence.entries(access: { [viewers] in viewers[$0]?.session.access ?? .none }, presenter: room.presenter.key)
        state.presenter = room.presenter.author
        state.changedBy = room.changedBy
        state.showing = room.showing
    }

    /// `channel`'s state as viewer `id` is told it: with `you`, its person.
    func state(of channel: Channel, for id: ConnectionID) -> SessionState {
        var state = state(of: channel)
        state.you = rooms[channel.name]?.presence.person(of: id)?.author
        return state
    }

    /// `GET /api/activity?channel=`: its last changes, oldest first.
    func activity(of channel: Channel) -> [ActivityEntry] { rooms[channel.name]?.activity.entries ?? [] }

    /// `command`, sent as `type`, as `author` made it on `channel` now, not yet numbered.
    private func change(_ command: SessionCommand, as type: String, by author: Author, on channel: Channel,
                        about: Comment?) -> ActivityEntry {
        let state = channel.session.state(viewers: 0, fps: 0)
        let summary = command.summary(by: author.name, chain: state.filter.links.map(\.name), about: about)
        return ActivityEntry(id: 0, at: ActivityEntry.timestamp(Date()), position: state.position, frame: state.frame, by: author,
                             what: type, summary: summary)
    }

    /// The activity `channel` has due, to every viewer of it who may watch, and into the running
    /// recording's sidecar.
    func tellActivity(_ channel: Channel) {
        guard let room = rooms[channel.name], !room.due.isEmpty else { return }
        for entry in room.due {
            channel.session.lookLog.note(entry)
            let message = ServerMessage.activity(entry).encoded()
            for (id, connection) in viewers(of: channel) where connection.session.mayWatch {
                connection.session.tellActivity(message)
                requestWrite(id)
            }
        }
        room.due.removeAll()
    }

    private func relayPointer(by author: Author, at position: PointerPosition?, on channel: Channel) {
        let message = ServerMessage.pointer(by: author, at: position).encoded()
        for (id, connection) in viewers(of: channel) where connection.session.mayWatch {
            connection.session.point(message, from: author.id)
            requestWrite(id)
        }
    }
}
