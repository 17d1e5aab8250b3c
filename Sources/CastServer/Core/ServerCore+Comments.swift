import CastProtocol
import FilterKit
import Foundation

/// What a channel's comments are about: the source that plays, as ``CommentFolder`` files it.
struct CommentSource: Equatable {
    /// ``SourceKey``: the file's content, or the name of a source that is no file.
    let key: String
    /// What viewers call it (`state.source.name`).
    let name: String
    /// The file, for the comments' pictures; nil for a source that is no file.
    let path: String?
    /// Its frames a second, numbering its frames.
    let fps: Double
}

/// Comments with drawings pinned to a frame of the source that plays (`comment`, v1 addition):
/// added by any controller, changed by their author or the admin, kept per source by the
/// comments folder, told to every viewer of the channel as `comments`. Service thread only.
extension ServerCore {
    /// The source `channel` plays, as its comments are filed.
    func commentSource(of channel: Channel) -> CommentSource {
        let session = channel.session
        let source = session.sourceState.withLock { $0 }
        let fps = Session.frameRate(of: session.player.info)
        if source.kind == .file, let path = session.playingFile(), let key = commentFolder?.key(ofFile: path) {
            return CommentSource(key: key, name: source.name, path: path, fps: fps)
        }
        return CommentSource(key: SourceKey.ofName(source.kind.rawValue + ":" + source.name), name: source.name, path: nil, fps: fps)
    }

    /// The comments of what `channel` plays, oldest first.
    func comments(of channel: Channel) -> (source: CommentSource, comments: [Comment]) {
        let source = commentSource(of: channel)
        return (source, commentFolder?.comments(of: source.key) ?? [])
    }

    /// Carries out `command` of `author` (`admin`: the admin's credentials) on `channel`'s
    /// comments: kept on disk before anyone is told, then every viewer of the channel gets the
    /// change. Returns the comment it is about (as it is now; a deleted one as it was), which the
    /// activity names.
    func applyComment(_ command: CommentCommand, by author: Author, admin: Bool, on channel: Channel,
                      from viewer: ConnectionID) throws(ProtocolError) -> Comment {
        guard let folder = commentFolder else {
            throw ProtocolError(code: .forbidden, message: "this server keeps no comments")
        }
        let source = commentSource(of: channel)
        var list = folder.comments(of: source.key)
        let changed: Comment?, about: Comment
        switch command {
        case .add(let place, let duration, let text, let drawing):
            guard list.count < CommentLimits.maximumPerSource else {
                throw ProtocolError(code: .tooLarge, message: "\(source.name) has \(list.count) comments, the most a source keeps "
                    + "(\(CommentLimits.maximumPerSource)): delete one first")
            }
            let comment = newComment(at: place, duration: duration, text: text, drawing: drawing, by: author, on: channel, fps: source.fps)
            list.append(comment)
            (changed, about) = (comment, comment)
        case .edit(let id, let text, let drawing):
            let index = try owned(id, in: list, by: author, admin: admin)
            if let text { list[index].text = text }
            if let drawing { list[index].drawing = drawing }
            guard !list[index].text.isEmpty || !list[index].drawing.isEmpty else {
                throw ProtocolError(code: .invalidArgument, message: "comment.text must be text or a drawing: a comment needs one")
            }
            list[index].edited = ActivityEntry.timestamp(Date())
            (changed, about) = (list[index], list[index])
        case .resolve(let id, let resolved):
            let index = try owned(id, in: list, by: author, admin: admin)
            list[index].resolved = resolved
            (changed, about) = (list[index], list[index])
        case .delete(let id):
            (changed, about) = (nil, list.remove(at: try owned(id, in: list, by: author, admin: admin)))
        case .show(let id):
            return try showComment(id, on: channel, from: viewer)
        }
        if let problem = folder.store(list, of: source.key, source: source.name) {
            throw ProtocolError(code: .busy, message: "the comment was not kept: \(problem)")
        }
        commentChanged(command, changed, source: source, on: channel)
        return about
    }

    /// Seeks `channel` to comment `id` and shows its drawing to everyone until the playhead moves.
    func showComment(_ id: String, on channel: Channel, from viewer: ConnectionID) throws(ProtocolError) -> Comment {
        guard let comment = comments(of: channel).comments.first(where: { $0.id == id }) else { throw Self.noComment(id) }
        _ = try channel.session.apply(.pause, from: viewer)
        if channel.session.sourceState.withLock({ $0.seekable }) {
            _ = try channel.session.apply(.seek(position: comment.position), from: viewer)
        }
        room(of: channel).showing = id
        return comment
    }

    /// The comments (their source's key) that go with the recording `command` deletes, if it is
    /// a `delete` of one that has comments: asked before the file goes.
    func commentsGoing(with command: SessionCommand, on channel: Channel) -> String? {
        guard case .delete(let reference) = command, let folder = commentFolder,
              let path = try? channel.session.library?.resolve(reference).path, let key = folder.key(ofFile: path) else { return nil }
        return folder.comments(of: key).isEmpty ? nil : key
    }

    /// The comments of source `key` and their pictures go (its recording was deleted).
    func forgetComments(of key: String) {
        for comment in commentFolder?.comments(of: key) ?? [] { commentPictures?.remove(comment.id) }
        commentFolder?.remove(key)
    }

    /// A playback command moved the playhead (or set it moving: `speed`): the comment shown is no longer.
    func playheadMoved(_ command: SessionCommand, on channel: Channel) {
        switch command {
        case .play, .seek, .step, .speed, .open, .share: rooms[channel.name]?.showing = nil
        default: break
        }
    }

    /// A new comment of `author` at `place` (or the playhead) with the program chain now.
    private func newComment(at place: CommentPlace, duration: Double?, text: String, drawing: [CommentShape], by author: Author,
                            on channel: Channel, fps: Double) -> Comment {
        let (frame, position): (Int, Double) = switch place {
        case .frame(let frame): (frame, Double(frame) / fps)
        case .position(let seconds): (Int((seconds * fps).rounded()), seconds)
        }
        let chain = channel.session.state(viewers: 0, fps: 0).filter.links.map { FilterLinkRequest(name: $0.name, params: $0.parameters, region: $0.region) }
        let id = "c" + String(UInt64.random(in: 1...UInt64.max), radix: 36)
        return Comment(id: id, author: author, at: ActivityEntry.timestamp(Date()), frame: frame, position: position,
                       duration: duration, text: text, drawing: drawing, chain: chain)
    }

    /// The index of comment `id` in `list`, when `author` wrote it or is the admin.
    private func owned(_ id: String, in list: [Comment], by author: Author, admin: Bool) throws(ProtocolError) -> Int {
        guard let index = list.firstIndex(where: { $0.id == id }) else { throw Self.noComment(id) }
        guard admin || list[index].author.id == author.id else {
            throw ProtocolError(code: .unauthorized, message: "comment \(id) is \(list[index].author.name)'s: only its author or the admin may change it")
        }
        return index
    }

    private static func noComment(_ id: String) -> ProtocolError {
        ProtocolError(code: .notFound, message: "no comment \(id) on the source that plays")
    }

    /// Tells every viewer of `channel` who may watch of a change (`changed`: the comment as it is
    /// now; nil: deleted), and has its picture drawn again.
    private func commentChanged(_ command: CommentCommand, _ changed: Comment?, source: CommentSource, on channel: Channel) {
        if let id = command.commentID { commentPictures?.remove(id) }
        if let changed, let path = source.path { commentPictures?.draw(changed, path: path) }
        let message = ServerMessage.commentChanged(source: source.name, comment: changed, deleted: changed == nil ? command.commentID : nil)
        tellComments(message.encoded(), on: channel)
    }

    /// Sends `encoded` to every viewer of `channel` who may watch.
    private func tellComments(_ encoded: [UInt8], on channel: Channel) {
        for (id, connection) in viewers(of: channel) where connection.session.mayWatch {
            connection.session.tell(encoded)
            requestWrite(id)
        }
    }

    /// The whole list of what `channel` plays, to viewer `id` (it joined, or may watch now).
    func tellComments(to id: ConnectionID, _ connection: ViewerConnection) {
        guard commentFolder != nil, connection.session.mayWatch else { return }
        let (source, list) = comments(of: connection.channel)
        connection.session.tell(ServerMessage.comments(source: source.name, list).encoded())
        requestWrite(id)
    }

    /// Four times a second: when `channel` plays another source than its viewers were told the
    /// comments of, they get the new source's list.
    func tellCommentsOfNewSource(_ channel: Channel) {
        guard commentFolder != nil, let room = rooms[channel.name] else { return }
        let (source, list) = comments(of: channel)
        guard room.commentSource != source.key else { return }
        let told = room.commentSource != nil
        room.commentSource = source.key
        room.showing = nil
        if told { tellComments(ServerMessage.comments(source: source.name, list).encoded(), on: channel) }
    }

    /// `GET /api/comments?channel=` (`format` json, csv or edl).
    func commentsAnswer(_ channel: Channel, format: String?) -> HTTPAnswer {
        let (source, list) = comments(of: channel)
        switch format ?? "json" {
        case "json":
            struct Listing: Encodable { let channel: String, source: String, fps: Double, comments: [Comment] }
            return .json(encoding: Listing(channel: channel.name.description, source: source.name, fps: source.fps, comments: list))
        case "csv":
            return .body(status: 200, type: "text/csv; charset=utf-8", bytes: Array(CommentExport.csv(list, fps: source.fps).utf8))
        case "edl":
            return .body(status: 200, type: "text/plain; charset=utf-8",
                         bytes: Array(CommentExport.edl(list, title: source.name, fps: source.fps).utf8))
        default:
            return .status(400, "format must be json, csv or edl")
        }
    }

    /// `GET /snapshot.jpg?comment=ID&channel=`: the comment's picture (``CommentPictures``).
    func commentPicture(_ channel: Channel, id: String) -> HTTPAnswer {
        let (source, list) = comments(of: channel)
        guard let comment = list.first(where: { $0.id == id }) else { return .status(404, "no comment \(id) on the source that plays") }
        guard let path = source.path, let pictures = commentPictures else {
            return .status(404, "comment \(id) is on \(source.name), which is no file: its frame cannot be decoded again")
        }
        return pictures.answer(comment, path: path)
    }
}
