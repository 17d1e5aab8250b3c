import Foundation
import FilterKit
import Logging
import MediaKit

/// `--channels-file FILE`: the channels kept across restarts, as JSON —
/// `{"channels": [{"name": NAME, "input": INPUT, "filter": {…}, "alwaysOn": true, "token": T}, …]}` (each entry what
/// `PUT /api/channels/NAME` takes, with its name). Read at start (created empty when missing);
/// rewritten atomically (a temporary file beside it, readable by its owner only — it may hold
/// channels' tokens —, then renamed over it) whenever a channel is
/// added or removed at run time.
///
/// Threads: read on the thread that starts the server; then the network thread's only.
public final class ChannelsFile {
    public let path: String
    /// The entries, in order: each channel's name and its JSON body (without the name).
    private(set) var entries: [(name: ChannelName, body: Data)]

    /// Reads `path` (creates it when missing); the channels it gives, checked against `catalog`.
    /// A file that cannot be read, is not such JSON, or has a bad entry throws one line naming the file.
    public init(path: String, catalog: FilterCatalog) throws(ServerError) {
        self.path = path
        if !FileManager.default.fileExists(atPath: path) {
            entries = []
            try write()
            return
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ServerError(description: "the channels file \(path) cannot be read")
        }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let list = object["channels"] as? [[String: Any]], object.count == 1 else {
            throw ServerError(description: "the channels file \(path) is not {\"channels\": [{\"name\": …, \"input\": …}, …]}")
        }
        var entries: [(name: ChannelName, body: Data)] = []
        for (index, var entry) in list.enumerated() {
            let problem = { (text: String) in ServerError(description: "the channels file \(path): entry \(index + 1): \(text)") }
            guard let text = entry.removeValue(forKey: "name") as? String else { throw problem("no \"name\"") }
            let name: ChannelName
            do throws(ChannelNameError) { name = try ChannelName(text) } catch { throw problem(error.description) }
            guard !entries.contains(where: { $0.name == name }) else { throw problem("the channel '\(name)' is given twice") }
            guard let body = try? JSONSerialization.data(withJSONObject: entry, options: [.sortedKeys]) else { throw problem("unreadable") }
            do throws(ChannelOrder.Refusal) { _ = try ChannelOrder(Array(body), catalog: catalog) } catch { throw problem(error.message) }
            entries.append((name, body))
        }
        self.entries = entries
    }

    /// The channels it gives, as `--channel` would, with their filters.
    public func channels(catalog: FilterCatalog) -> [ChannelInput] {
        entries.compactMap { entry in
            (try? ChannelOrder(Array(entry.body), catalog: catalog)).map { $0.channel(entry.name) }
        }
    }

    /// Channel `name` was added with `body` (what `PUT` took): kept, and the file rewritten.
    func added(_ name: ChannelName, body: [UInt8]) {
        entries.removeAll { $0.name == name }
        entries.append((name, Data(body)))
        save()
    }

    /// Channel `name` was removed: no longer kept (the file rewritten when it was).
    func removed(_ name: ChannelName) {
        guard entries.contains(where: { $0.name == name }) else { return }
        entries.removeAll { $0.name == name }
        save()
    }

    private func save() {
        do throws(ServerError) {
            try write()
        } catch {
            Log.warning("the channels file was not written: \(error.description)", ["path": .string(path)])
        }
    }

    /// The entries to a temporary file beside `path`, flushed, then renamed over it
    /// (``AtomicFile``): a reader (or a crash) sees the old file or the new one, never half of one.
    private func write() throws(ServerError) {
        var list: [[String: Any]] = []
        for entry in entries {
            var object = (try? JSONSerialization.jsonObject(with: entry.body) as? [String: Any]) ?? [:]
            object["name"] = entry.name.description
            list.append(object)
        }
        guard let data = try? JSONSerialization.data(withJSONObject: ["channels": list], options: [.prettyPrinted, .sortedKeys]) else {
            throw ServerError(description: "the channels file \(path) cannot be written: its entries are not JSON")
        }
        let file = URL(fileURLWithPath: path)
        if let problem = AtomicFile.write(Array(data), folder: file.deletingLastPathComponent().path, name: file.lastPathComponent,
                                          temporaryPrefix: ".channels-", replacing: true, mode: 0o600) {
            throw ServerError(description: "the channels file \(path) cannot be written: \(problem)")
        }
    }
}
