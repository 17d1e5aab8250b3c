import CastProtocol
import Dispatch
import FilterKit
import Foundation
import Logging
import MediaKit
import Synchronization

/// `GET /snapshot.jpg?comment=ID`: the frame a comment is pinned to, decoded from its file, with
/// the chain in force when it was written and its drawing burned in, as a JPEG kept in
/// `pictures/` of the comments folder (`ID-VERSION.jpg`, the version changing with every edit).
///
/// Decoding a frame can take a second (a seek decodes from the keyframe before it), so it never
/// runs on the network thread: pictures are drawn one at a time on a queue of their own, when a
/// comment is written or edited and when one is asked for and not there yet (answered "being
/// drawn, ask again" meanwhile). Bounded: one picture per comment version, at most
/// ``maximumQueued`` waiting.
final class CommentPictures: Sendable {
    static let maximumQueued = 64

    let folder: String
    private let catalog: FilterCatalog
    private let queue = DispatchQueue(label: "filtercast.comment-pictures", qos: .utility)
    /// The files being drawn or waiting to be, and why the last of each failed.
    private let state = Mutex<(pending: Set<String>, failed: [String: String])>(([], [:]))

    init(folder: String, catalog: FilterCatalog) {
        self.folder = folder
        self.catalog = catalog
    }

    /// Where `comment`'s picture is kept.
    func file(of comment: Comment) -> String {
        folder + "/" + comment.id + "-" + SourceKey.ofName(comment.edited ?? comment.at).dropFirst() + ".jpg"
    }

    /// The answer to a request of `comment`'s picture; `path`: its source's file.
    func answer(_ comment: Comment, path: String) -> HTTPAnswer {
        let file = file(of: comment)
        if FileManager.default.fileExists(atPath: file) { return .file(path: file, mimeType: "image/jpeg") }
        if let failure = state.withLock({ $0.failed[file] }) { return .status(500, "the comment's picture cannot be made: \(failure)") }
        draw(comment, path: path)
        return .status(503, "the comment's picture is being drawn: ask again in a moment", headers: [("retry-after:", "1")])
    }

    /// Draws `comment`'s picture from the file at `path` on the queue, unless it is there or queued.
    func draw(_ comment: Comment, path: String) {
        let file = file(of: comment)
        let queued = state.withLock { state -> Bool in
            guard !state.pending.contains(file), state.pending.count < Self.maximumQueued else { return false }
            state.pending.insert(file)
            return true
        }
        guard queued, !FileManager.default.fileExists(atPath: file) else {
            if queued { _ = state.withLock { $0.pending.remove(file) } }
            return
        }
        queue.async { [self] in
            let problem: String?
            do {
                let jpeg = try Self.render(comment, path: path, catalog: catalog)
                problem = AtomicFile.write(jpeg, folder: folder, name: (file as NSString).lastPathComponent,
                                           temporaryPrefix: CommentFolder.temporaryPrefix, replacing: true)
            } catch {
                problem = "\(error)"
            }
            if let problem { Log.warning("comment picture not made", ["comment": .string(comment.id), "error": .string(problem)]) }
            state.withLock { state in
                state.pending.remove(file)
                if let problem {
                    if state.failed.count >= Self.maximumQueued { state.failed.removeAll() }  // bounded; they are tried again
                    state.failed[file] = problem
                }
            }
        }
    }

    /// Forgets the pictures of comment `id` (deleted or edited).
    func remove(_ id: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names where name.hasPrefix(id + "-") { unlink(folder + "/" + name) }
    }

    /// The JPEG of `comment`: its frame of the file at `path`, its chain, its drawing.
    static func render(_ comment: Comment, path: String, catalog: FilterCatalog) throws -> [UInt8] {
        let source = try InputSpec.file(path).open()
        guard let seekable = source as? SeekableVideoSource else { throw MediaError.invalidInput("\(comment.id): its source cannot seek") }
        let frame = Frame(width: source.info.width, height: source.info.height)
        try seekable.seek(to: comment.position, into: frame)
        let links = comment.chain.filter { $0.name != FilterSettings.none.name }
        let chain = try FilterChain(validating: links.map(\.unvalidated), catalog: catalog)
        FilterRunner(selection: FilterSelection(chain), catalog: catalog).apply(to: frame)
        CommentDrawing.burn(comment.drawing, into: frame)
        return try JPEGEncoder(width: frame.width, height: frame.height, quality: 90).encode(frame)
    }
}
