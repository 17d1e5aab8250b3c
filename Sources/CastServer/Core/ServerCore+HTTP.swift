import Logging

/// Where every HTTP request enters the core: the route table's answer, and a pending request's
/// life (``PendingRequest``) — started, its body taken in pieces, finished (checked off the
/// network thread when that costs), answered at a wake-up, or let go when its client leaves.
/// The adapter (`WebSocketServer+Bodies`) makes one of these calls per lws event.
extension ServerCore {
    /// An HTTP request through the route table; a request with a body (an upload) that a route
    /// refuses is counted as a refused upload.
    package func answer(_ request: HTTPRequest) -> HTTPAnswer {
        let answer = router.answer(request)
        if request.method == .put || request.method == .post, !request.path.hasPrefix("/api/channels/"), case .status = answer {
            counters.uploads.count(.refused)
        }
        return answer
    }

    /// A request its route answers after more work, on connection `id`: its first step.
    package func start(_ pending: PendingRequest, on id: ConnectionID, _ request: HTTPRequest) -> BodyStep {
        pending.start(self, id, request)
    }

    /// A route admitted `body` for connection `id`: its pieces come to it.
    func takeBody(_ body: some PendingBody, on id: ConnectionID, request: HTTPRequest) -> BodyStep {
        bodies.admit(body, on: id)
        return .takeBody(sendContinue: request.header(.expect).lowercased() == "100-continue")
    }

    /// One piece of connection `id`'s body. (A refused request's body is drained by the adapter:
    /// no body here, nothing kept.)
    package func bodyPiece(_ id: ConnectionID, _ bytes: UnsafeRawBufferPointer) -> BodyStep {
        guard let body = bodies[id], !bodies.isChecking(id) else { return .receiving }
        guard let refusal = body.append(bytes, in: self) else { return .receiving }
        bodies.remove(id)
        return refusal.step
    }

    /// Connection `id`'s body is whole: its check starts on a thread of its own (the answer comes
    /// from ``takeBodyAnswers()``), or it is answered, or it waits for another answer.
    package func bodyComplete(_ id: ConnectionID) -> BodyStep {
        guard let body = bodies[id] else { return .receiving }
        guard !bodies.isChecking(id) else { return .probing }
        switch body.complete(in: self, on: id) {
        case .check(let name, let work, let answer):
            bodies.check(id, thread: name, work: work, answer: answer, wake: wake)
            return .probing
        case .step(let step):
            bodies.remove(id)
            return step
        }
    }

    /// At a wake-up: the answers of the bodies whose check ended and of the channels opened or
    /// stopped, by connection. The bodies whose client left are let go as their checks end.
    package func takeBodyAnswers() -> [(ConnectionID, BodyStep)] {
        for body in bodies.takeLeftChecked() { body.abandon(in: self) }
        return bodies.takeChecked().map { id, answer in (id, answer(self)) } + takeChannelAnswers()
    }

    /// Connection `id`'s client left (or its body stalled): its body is let go.
    package func bodyClosed(_ id: ConnectionID) {
        bodies.close(id)?.abandon(in: self)
    }
}
