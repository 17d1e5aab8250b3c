import CastProtocol

/// Who presents one channel, and what that keeps others from doing: while a person presents,
/// only they drive playback (the command table's ``CommandRule/drivesPlayback``); the looks, the chain and the rest stay open
/// to every controller. One presenter at most; only the admin takes it from another (`force`).
/// Pure: the core calls it on the service thread with the person's key and name.
struct Presenter {
    /// The presenting person's key and who they are; nil: nobody presents.
    private(set) var current: (key: String, author: Author)?

    var author: Author? { current?.author }
    var key: String? { current?.key }

    /// `present take` from person `key` (`author`) whose connection is `admin` or not. True when
    /// the presenter changed; `not_presenter` when another presents and this is not the admin forcing it.
    mutating func take(by key: String, author: Author, admin: Bool, force: Bool) throws(ProtocolError) -> Bool {
        if let current, current.key != key {
            guard force else {
                throw ProtocolError(code: .notPresenter, message: "\(current.author.name) presents: only the admin may take over (\"force\": true)")
            }
            guard admin else {
                throw ProtocolError(code: .notPresenter, message: "\(current.author.name) presents: only the admin may take over")
            }
        }
        let changed = current?.key != key
        current = (key, author)
        return changed
    }

    /// `present release` from person `key`: true when they presented (now nobody does). Releasing
    /// when someone else presents is refused (`not_presenter`); when nobody does, nothing happens.
    mutating func release(by key: String) throws(ProtocolError) -> Bool {
        guard let current else { return false }
        guard current.key == key else {
            throw ProtocolError(code: .notPresenter, message: "\(current.author.name) presents, not you: only they can release it")
        }
        self.current = nil
        return true
    }

    /// Refuses `what` (a command's type) from person `key` with `not_presenter` naming the
    /// presenter when it drives playback and someone else presents.
    func admit(_ what: String, from key: String?) throws(ProtocolError) {
        guard let current, current.key != key, CommandTable.rules[what]?.drivesPlayback == true else { return }
        throw ProtocolError(code: .notPresenter, message: "\(current.author.name) presents: only they drive playback (\(what))")
    }

    /// Person `key` left the channel: true when they presented (now nobody does).
    mutating func left(_ key: String) -> Bool {
        guard current?.key == key else { return false }
        current = nil
        return true
    }

    /// Person `key` is now called `author.name`.
    mutating func renamed(_ key: String, _ author: Author) {
        if current?.key == key { current = (key, author) }
    }
}
