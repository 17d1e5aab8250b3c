import CastProtocol
import Foundation
import Logging

/// `/ws` viewers: the upgrade, their messages in, their writes out, their leaving.
extension ServerCore {
    /// Before the upgrade to `/ws`: nil admits; else the refusal (404 for a `?channel=` that is
    /// not one, naming those that are; 503 over `--max-clients` or the channel's
    /// `--max-channel-viewers`; 403 for another site's page). A client without the token is
    /// admitted: it may send `auth` first.
    package func admit(_ request: HTTPRequest) -> HTTPAnswer? {
        let name = request.argument("channel")
        guard let channel = channels.channel(named: name) else { return channels.unknown(name ?? "") }
        if let refusal = clientLimitRefusal(channel, address: request.address) { return refusal }
        if let origin = router.foreignOrigin(request) {
            Log.warning("client refused: origin not allowed", ["address": .string(request.address), "origin": .string(origin)])
            return .status(403, "origin not allowed")
        }
        return nil
    }

    /// A viewer connected with `token` (`?token=` of its URL, nil without) to the channel
    /// `channel` names (`?channel=` of its URL; nil: the default one — `admit` refused names that
    /// are not a channel's), as `person` (`?person=`: its page's key) called `name` (`?name=`):
    /// its hello is due, and its channel's state (the people changed).
    package func viewerConnected(_ id: ConnectionID, token: String?, address: String, channel name: String? = nil,
                         person: String? = nil, personName: String? = nil) {
        let channel = channels.channel(named: name) ?? channels.defaultChannel
        let viewer = ViewerSession(token: token, policy: router.access.on(channel),
                                   offer: channel.outputs.offer, features: features(of: channel), now: now)
        let connection = ViewerConnection(session: viewer, channel: channel, address: address, connectedAt: now())
        viewers[id] = connection
        joinRoom(id, viewer, channel: channel, person: person, name: personName)
        logConnected("viewer", address: address, channel: channel)
        viewer.greet(filters: channel.session.catalog.descriptors, state: state(of: channel, for: id))
        room(of: channel).commentSource = commentSource(of: channel).key
        tellComments(to: id, connection)
        audienceChanged(channel)
        broadcastState(channel)
    }

    /// One fragment of a viewer's message; `roundTrip` (its socket's) is asked only for a `frameAck`.
    package func received(_ id: ConnectionID, _ fragment: UnsafeRawBufferPointer, isBinary: Bool, isLast: Bool,
                  roundTrip: () -> Duration) {
        guard let connection = viewers[id] else { return }
        let viewer = connection.session
        let outcome = viewer.receive(fragment, isBinary: isBinary, isLast: isLast, roundTrip: roundTrip,
                                     apply: { command, type throws(ProtocolError) in try apply(command, as: type, from: id) },
                                     ingest: { picture throws(ProtocolError) in try ingest(picture, from: id) })
        tellActivity(connection.channel)  // after the command's answer
        switch outcome {
        case .none:
            break
        case .applied(let command):
            if Log.enabled(.debug) {
                connection.channel.log.debug("command applied", ["address": .string(connection.address), "command": .string("\(command)")])
            }
            // A pointer is relayed, not a change of the state.
            if case .point = command { break }
            broadcastState(connection.channel)
            if command.answersOnceShown { viewer.acksWait(forJump: connection.channel.session.player.lastJump) }
        case .renamed(let name):
            rename(id, channel: connection.channel, to: name)
            broadcastState(connection.channel)
        case .authorized:
            audienceChanged(connection.channel)  // a viewer who could not watch before may now
            tellComments(to: id, connection)
        case .watching:
            connection.channel.log.debug("viewer watches", ["address": .string(connection.address),
                                                            "rendition": .string(connection.channel.outputs.offer[viewer.watching.rendition].id)])
            audienceChanged(connection.channel)
        }
        requestWriteIfDue(id, connection)
    }

    /// A viewer left: if it shared its camera, what played before comes back.
    package func viewerLeft(_ id: ConnectionID) {
        guard let connection = viewers.removeValue(forKey: id) else { return }
        writeRequests.remove(id)
        logDisconnected("viewer", connection.address, channel: connection.channel, since: connection.connectedAt,
                        frames: connection.session.flow.framesSent)
        sharerLeft(id, connection.channel)
        leaveRoom(id, channel: connection.channel)
        broadcastState(connection.channel)
        audienceChanged(connection.channel)
    }

    /// Asks for a writable callback while the viewer has something to write (`supply`: what its
    /// channel's outputs hold, when the caller read it already), and for a keyframe when it needs one.
    func requestWriteIfDue(_ id: ConnectionID, _ connection: ViewerConnection, _ supply: FrameSupply? = nil) {
        let channel = connection.channel, viewer = connection.session
        let supply = supply ?? self.supply(of: channel)
        let frameInterval = frameInterval(of: channel)
        if let rendition = viewer.keyframeNeeded(supply: supply, frameInterval: frameInterval) {
            channel.outputs.h264[rendition]?.requestKeyframe()
        }
        if viewer.hasWork(supply: supply, frameInterval: frameInterval) { requestWrite(id) }
    }

    /// Marks a fresh `state` due for every viewer of `channel` allowed to watch.
    func broadcastState(_ channel: Channel) {
        stateSchedules[channel.name]?.broadcast(channel.session.playback, at: now())
        let supply = supply(of: channel)
        for (id, connection) in viewers(of: channel) {
            connection.session.stateChanged()
            requestWriteIfDue(id, connection, supply)
        }
    }

    /// The server stops: every viewer is due a close (1001).
    package func shutDown() {
        for (id, connection) in viewers {
            connection.session.shutDown()
            requestWrite(id)
        }
    }

    /// One line per viewer or MJPEG reader that connects to `channel`.
    package func logConnected(_ kind: String, address: String, channel: Channel) {
        channel.log.info("client connected", ["client": .string(kind), "address": .string(address),
                                      "viewers": .int(viewerCount), "mjpeg_readers": .int(mjpegReaderCount)])
    }

    /// One line per viewer or MJPEG reader that leaves `channel`, with the frame rate it got over its lifetime.
    package func logDisconnected(_ kind: String, _ address: String, channel: Channel, since connectedAt: ContinuousClock.Instant,
                         frames: Int) {
        let seconds = connectedAt.duration(to: now()).seconds
        let fps = seconds > 0 ? Double(frames) / seconds : 0
        channel.log.info("client disconnected", [
            "client": .string(kind), "address": .string(address),
            "seconds": .double((seconds * 10).rounded() / 10), "frames": .int(frames),
            "fps": .double((fps * 10).rounded() / 10), "viewers": .int(viewerCount), "mjpeg_readers": .int(mjpegReaderCount),
        ])
    }
}
