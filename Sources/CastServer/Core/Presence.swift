import CastProtocol

/// Who is on one channel: people, each with the connections their page opened. A page gives
/// every connection it opens the same `?person=` key (random, kept by the page), so its second
/// connection (compare, studio) is the same person; a connection without one is a person of its
/// own. The key stays private: others know a person by its id (`p3`), numbered on the channel.
/// Pure: the core calls it on the service thread.
struct Presence {
    /// One person: their id's number, their name if they gave one, their open connections.
    struct Person: Equatable {
        let number: Int
        var name: String?
        var connections: Set<ConnectionID>

        var id: String { "p\(number)" }
        /// Their display name: the one they gave, else "Guest N".
        var displayName: String { name ?? "Guest \(number)" }
        var author: Author { Author(id: id, name: displayName) }
    }

    /// The longest `?person=` key taken; a longer one, or one with other characters than
    /// letters, digits, `-` and `_`, is ignored (the connection is a person of its own).
    static let maximumKeyLength = 64

    /// Everyone on the channel, by key, and in the order they came.
    private(set) var people: [String: Person] = [:]
    private var order: [String] = []
    private var keys: [ConnectionID: String] = [:]
    private var lastNumber = 0

    /// How many people are on the channel.
    var count: Int { people.count }

    /// Connection `connection` joined with `?person=` `key` (nil or not a valid key: a person of
    /// its own) and `?name=` `name` (already checked; nil keeps the person's). Returns its person's key.
    @discardableResult
    mutating func join(_ connection: ConnectionID, key: String?, name: String?) -> String {
        let key = key.flatMap(Self.validKey) ?? "#\(connection)"  // '#' is never in a client's key
        keys[connection] = key
        if people[key] == nil {
            lastNumber += 1
            people[key] = Person(number: lastNumber, name: nil, connections: [])
            order.append(key)
        }
        people[key]!.connections.insert(connection)
        if let name { people[key]!.name = name }
        return key
    }

    /// Connection `connection` left: its person's key and the person, when it was their last
    /// connection (they left the channel); nil otherwise.
    mutating func leave(_ connection: ConnectionID) -> (key: String, person: Person)? {
        guard let key = keys.removeValue(forKey: connection), var person = people[key] else { return nil }
        person.connections.remove(connection)
        guard person.connections.isEmpty else {
            people[key] = person
            return nil
        }
        people[key] = nil
        order.removeAll { $0 == key }
        return (key, person)
    }

    /// The person of `connection` is called `name` from now on (already checked).
    mutating func rename(_ connection: ConnectionID, to name: String) {
        guard let key = keys[connection] else { return }
        people[key]?.name = name
    }

    /// The key of the person `connection` belongs to.
    func key(of connection: ConnectionID) -> String? { keys[connection] }

    /// The person `connection` belongs to.
    func person(of connection: ConnectionID) -> Person? { keys[connection].flatMap { people[$0] } }

    /// `state.people`, in the order people came: each with the best `access` of their
    /// connections, and whether they are `presenter` (its key).
    func entries(access: (ConnectionID) -> ViewerAccess, presenter: String?) -> [PersonEntry] {
        order.compactMap { key in
            guard let person = people[key] else { return nil }
            let best = person.connections.map(access).max(by: { Self.rank($0) < Self.rank($1) }) ?? .none
            return PersonEntry(id: person.id, name: person.displayName, access: best, presenter: key == presenter)
        }
    }

    private static func rank(_ access: ViewerAccess) -> Int {
        switch access {
        case .none: 0
        case .watch: 1
        case .control: 2
        case .admin: 3
        }
    }

    /// `key` when it is 1…``maximumKeyLength`` letters, digits, `-` or `_`.
    private static func validKey(_ key: String) -> String? {
        let allowed = key.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2D || byte == 0x5F
        }
        return allowed && !key.isEmpty && key.utf8.count <= maximumKeyLength ? key : nil
    }
}
