import CastProtocol
import FilterKit
import Foundation
import Logging
import MediaKit

/// One `PUT /api/channels/NAME` body being gathered: JSON, at most ``maximumBytes``; once whole,
/// the channel is opened by the ``ChannelDesk`` (``ServerCore/openChannel(_:body:on:)``). Network thread only.
final class ChannelRequest: PendingBody {
    /// The largest body taken.
    static let maximumBytes = 64 * 1024

    let name: ChannelName
    private var gathered: GatheredBytes

    init(name: ChannelName, expected: Int) {
        self.name = name
        gathered = GatheredBytes(expected: expected)
    }

    func append(_ bytes: UnsafeRawBufferPointer, in core: ServerCore) -> BodyRefusal? { gathered.append(bytes) }

    func complete(in core: ServerCore, on id: ConnectionID) -> BodyCompletion {
        if let shortfall = gathered.shortfall { return .step(shortfall.step) }
        return .step(core.openChannel(name, body: gathered.bytes, on: id))
    }

    func abandon(in core: ServerCore) {}
}

/// Channels added and removed at run time (admin; the route table checks it).
///
/// `PUT /api/channels/NAME` with `{"input": "…", "filter": {…}}` (`filter`: a `setFilter`
/// message's fields, optional): the name, the body, the input's form and the filter are checked
/// on the network thread (400 naming the problem; 409 for a name taken or being added or
/// removed, or at `--max-channels`), then the input is opened and the channel's services
/// started by the ``ChannelDesk`` on a thread of its own; at a later wake-up the channel joins the
/// registry and the request gets 201 with the channel as `GET /api/channels` lists it — or 400
/// when the input could not be opened within `--open-timeout`, and nothing is added.
///
/// `DELETE /api/channels/NAME`: the channel leaves the registry at once (nobody new reaches it);
/// its viewers are sent a close (1001) whose reason says it was removed, its MJPEG readers and
/// waiting snapshots are cut; its services stop on a thread of the desk (a recording is finished
/// and kept in `RECORDINGS/NAME/`), then the request gets 200. The default channel stays (409).
extension ServerCore {
    /// The router admitted a channel `text` to add on connection `id` (`request`: its headers).
    func channelPutAdmitted(_ id: ConnectionID, name text: String, request: HTTPRequest) -> BodyStep {
        let name: ChannelName
        do throws(ChannelNameError) {
            name = try ChannelName(text)
        } catch {
            return .refuse(400, error.description)
        }
        if let refusal = refusalToAdd(name) { return refusal }
        switch GatheredBytes.announcedSize(request, atMost: ChannelRequest.maximumBytes, of: "the body",
                                           expecting: "JSON such as {\"input\": \"rtsp://10.0.0.5/stream\"}") {
        case .success(let size):
            return takeBody(ChannelRequest(name: name, expected: size), on: id, request: request)
        case .failure(let refusal):
            return refusal.step
        }
    }

    /// Channel `name`'s whole JSON `body`: checked, then the input is opened off this thread; the
    /// answer comes from the desk (``takeChannelAnswers()``).
    func openChannel(_ name: ChannelName, body: [UInt8], on id: ConnectionID) -> BodyStep {
        let catalog = channels.defaultChannel.session.catalog
        let order: ChannelOrder
        do throws(ChannelOrder.Refusal) {
            order = try ChannelOrder(body, catalog: catalog)
        } catch {
            return .refuse(400, "channel \(name): \(error.message)")
        }
        if let refusal = refusalToAdd(name) { return refusal }
        channelChanges[name] = "being added"
        channelBodies[name] = body
        Log.info("channel being added", ["channel": .string(name.description)])
        channelDesk.open(order.channel(name), for: id)
        return .waiting(seconds: Int32(configuration.openTimeout.seconds.rounded(.up)) + 10)
    }

    /// `DELETE /api/channels/NAME` on connection `id`: the channel leaves at once; the answer
    /// comes once its services stopped.
    func channelDeleted(_ id: ConnectionID, name text: String) -> BodyStep {
        guard let name = try? ChannelName(text), let channel = channels[name] else {
            if let name = try? ChannelName(text), let change = channelChanges[name] { return .refuse(409, "channel \(name) is \(change)") }
            return refusal(channels.unknown(text))
        }
        guard !channel.isDefault else { return .refuse(409, "channel \(name) is the default channel: it cannot be removed") }
        channels = channels.removing(name)
        metrics.remove(label: "channel", value: name.description)
        stateSchedules[name] = nil
        rooms[name] = nil
        channelChanges[name] = "being removed"
        for (viewerID, connection) in viewers(of: channel) {
            connection.session.channelRemoved(name)
            requestWrite(viewerID)
        }
        for (watcherID, watcher) in watchers where watcher.channel === channel { watchers[watcherID] = nil }
        Log.info("channel removed", ["channel": .string(name.description)])
        configuration.channelsFile?.removed(name)
        channelDesk.remove(name, for: id)
        wake.ring()  // the adapter cuts the channel's MJPEG readers and snapshots at the wake-up
        return .waiting(seconds: 30)
    }

    /// The answers of the channels opened or stopped since the last wake-up, by connection (an
    /// opened channel joins the registry even when its client left).
    func takeChannelAnswers() -> [(ConnectionID, BodyStep)] {
        channelDesk.takeFinished().map { finished in
            switch finished {
            case .opened(let id, let name, .success(let channel)):
                channelChanges[name] = nil
                if let body = channelBodies.removeValue(forKey: name) { configuration.channelsFile?.added(name, body: body) }
                channels = channels.adding(channel)
                ServerMetrics.register(channel, in: metrics)
                stateSchedules[name] = StateBroadcastSchedule(now: now())
                Log.info("channel added", ["channel": .string(name.description), "source": .string(channel.session.player.info.name)])
                return (id, .answer(201, JSONBody.encoded(ChannelSummary(channel, state: state(of: channel)))))
            case .opened(let id, let name, .failure(let failure)):
                channelChanges[name] = nil
                channelBodies[name] = nil
                Log.info("channel refused", ["channel": .string(name.description), "reason": .string(failure.message)])
                return (id, .refuse(400, "channel \(name): the input cannot be opened: \(failure.message)"))
            case .removed(let id, let name):
                channelChanges[name] = nil
                struct Removed: Encodable { let removed: String }
                return (id, .answer(200, JSONBody.encoded(Removed(removed: name.description))))
            }
        }
    }

    /// Why channel `name` cannot be added now: it exists, is being added or removed, or there are
    /// `--max-channels` (those being added count).
    private func refusalToAdd(_ name: ChannelName) -> BodyStep? {
        if channels[name] != nil { return .refuse(409, "channel \(name) exists already") }
        if let change = channelChanges[name] { return .refuse(409, "channel \(name) is \(change)") }
        let count = channels.all.count + channelChanges.values.filter { $0 == "being added" }.count
        guard count < configuration.maxChannels else {
            return .refuse(409, "the server has \(count) channels, the most --max-channels (\(configuration.maxChannels)) allows")
        }
        return nil
    }

    private func refusal(_ answer: HTTPAnswer) -> BodyStep {
        guard case .status(let code, let message, _) = answer else { return .refuse(500, "unexpected answer") }
        return .refuse(code, message)
    }
}

/// What a `PUT /api/channels/NAME` body asks for: `{"input": INPUT, "filter": {…}}`, checked.
struct ChannelOrder {
    struct Refusal: Error {
        let message: String
    }

    /// What `--input` would take.
    let input: InputSpec
    /// The chain the channel starts with (`filter`: a `setFilter` message's fields; none: no filter).
    let filter: FilterChain
    /// `alwaysOn`: its live input stays open while nobody watches (default false).
    let alwaysOn: Bool
    /// `token`: the channel's own control token (1–256 bytes; none: the server's tokens alone).
    let token: String?

    init(_ body: [UInt8], catalog: FilterCatalog) throws(Refusal) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else {
            throw Refusal(message: "the body must be a JSON object such as {\"input\": \"rtsp://10.0.0.5/stream\"}")
        }
        if let unknown = object.keys.sorted().first(where: { !Self.fields.contains($0) }) {
            throw Refusal(message: "unknown field \"\(unknown.prefix(40))\" (the body takes input, filter, alwaysOn and token)")
        }
        guard let text = object["input"] as? String, !text.isEmpty else {
            throw Refusal(message: "\"input\" must be a non-empty string: what --input takes")
        }
        do throws(MediaError) {
            input = try InputSpec(parsing: text)
        } catch {
            throw Refusal(message: error.description)
        }
        filter = try Self.chain(object["filter"], catalog: catalog)
        guard let alwaysOn = object["alwaysOn"].map(Self.flag) ?? false else {
            throw Refusal(message: "\"alwaysOn\" must be true or false")
        }
        self.alwaysOn = alwaysOn
        switch object["token"] {
        case nil: token = nil
        case let text as String where (1...256).contains(text.utf8.count): token = text
        default: throw Refusal(message: "\"token\" must be a string of 1 to 256 bytes")
        }
    }

    /// Channel `name` as this body describes it.
    func channel(_ name: ChannelName) -> ChannelInput {
        ChannelInput(name: name, input: input, filter: filter, alwaysOn: alwaysOn, token: token)
    }

    /// JSON's `true` or `false` as `JSONSerialization` reads them (a number, 0 or 1, is no flag).
    private static func flag(_ value: Any) -> Bool? {
        guard let number = value as? NSNumber, String(cString: number.objCType) == "c" else { return nil }
        return number.boolValue
    }

    /// The fields a body may have.
    private static let fields: Set<String> = ["input", "filter", "alwaysOn", "token"]

    /// `filter`'s fields as a `setFilter` message takes them, checked against `catalog`.
    private static func chain(_ value: Any?, catalog: FilterCatalog) throws(Refusal) -> FilterChain {
        guard let value else { return .none }
        guard var fields = value as? [String: Any] else {
            throw Refusal(message: "\"filter\" must be an object as setFilter takes it: {\"name\": …} or {\"chain\": […]}")
        }
        fields["type"] = "setFilter"
        fields["id"] = nil
        guard let data = try? JSONSerialization.data(withJSONObject: fields), let text = String(data: data, encoding: .utf8) else {
            throw Refusal(message: "\"filter\" cannot be read")
        }
        do {
            switch try ClientMessageParser.parse(text).command {
            case .session(.setFilter(let name, let parameters, _)):
                return FilterChain(try FilterSettings(name: name, parameters: parameters, catalog: catalog))
            case .session(.setFilterChain(let links, _)):
                return try FilterChain(validating: links.map(\.unvalidated), catalog: catalog)
            default:
                throw Refusal(message: "\"filter\" is not a filter")
            }
        } catch let error as Refusal {
            throw error
        } catch {
            throw Refusal(message: "\"filter\": \(error)")
        }
    }
}
