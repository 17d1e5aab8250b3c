@testable import CastServer
import CastProtocol
import Testing

/// The review room's pure parts, on a clock the test moves: presence, the presenter, the
/// activity log and its bursts, the pointer's rate.
@Suite struct RoomTests {
    let start = ContinuousClock.now

    @Test func onePagesConnectionsAreOnePersonAndUnnamedPeopleAreGuests() {
        var presence = Presence()
        presence.join(1, key: "page-a", name: nil)
        presence.join(2, key: "page-a", name: nil)
        presence.join(3, key: nil, name: "Bob")
        presence.join(4, key: "bad key!", name: nil)  // not a key: a person of its own
        #expect(presence.count == 3)
        let people = presence.entries(access: { $0 == 2 ? .admin : .control }, presenter: "page-a")
        #expect(people.map(\.name) == ["Guest 1", "Bob", "Guest 3"])
        #expect(people[0].access == .admin && people[0].presenter && !people[1].presenter)
        presence.rename(2, to: "Ana")
        #expect(presence.person(of: 1)?.author == Author(id: "p1", name: "Ana"))
        #expect(presence.leave(1) == nil, "Ana's other connection is open")
        #expect(presence.leave(2)?.key == "page-a")
        #expect(presence.count == 2)
    }

    @Test func onlyTheAdminTakesThePresenterFromAnother() throws {
        var presenter = Presenter()
        let ana = Author(id: "p1", name: "Ana"), bob = Author(id: "p2", name: "Bob")
        #expect(try presenter.take(by: "a", author: ana, admin: false, force: false))
        #expect(try !presenter.take(by: "a", author: ana, admin: false, force: false), "taking it again changes nothing")
        #expect(throws: ProtocolError.self) { try presenter.take(by: "b", author: bob, admin: false, force: false) }
        #expect(throws: ProtocolError.self) { try presenter.take(by: "b", author: bob, admin: false, force: true) }
        #expect(throws: ProtocolError.self) { try presenter.admit("seek", from: "b") }
        try presenter.admit("setParams", from: "b")  // looks stay open
        try presenter.admit("seek", from: "a")
        do {
            try presenter.admit("speed", from: "b")
            Issue.record("speed is playback")
        } catch {
            #expect(error.code == .notPresenter && error.message.contains("Ana"))
        }
        #expect(try presenter.take(by: "b", author: bob, admin: true, force: true))
        #expect(presenter.author == bob)
        #expect(throws: ProtocolError.self) { try presenter.release(by: "a") }
        #expect(!presenter.left("a") && presenter.left("b") && presenter.author == nil)
    }

    private func change(_ by: String, _ summary: String) -> ActivityEntry {
        ActivityEntry(id: 0, at: "t", position: 0, frame: 0, by: Author(id: by, name: by), what: "setParams", summary: summary)
    }

    @Test func aSliderDragIsOneEntryAtMostOneMessageEveryTwoSeconds() {
        var log = ActivityLog()
        #expect(log.record(change("p1", "0.1"), burst: "slider", now: start)?.summary == "0.1", "the first move is told at once")
        for (step, value) in ["0.2", "0.3", "0.4"].enumerated() {
            #expect(log.record(change("p1", value), burst: "slider", now: start + .milliseconds(400 * (step + 1))) == nil)
        }
        #expect(log.record(change("p2", "0.9"), burst: "slider", now: start + .milliseconds(500))?.summary == "0.9", "another person's burst is theirs")
        #expect(log.flush(now: start + .milliseconds(1999)).isEmpty)
        let again = log.flush(now: start + .seconds(2))
        #expect(again.map(\.summary) == ["0.4"] && again.first?.id == 1, "the burst's last value, the same entry")
        #expect(log.entries.map(\.summary) == ["0.4", "0.9"])
        #expect(log.flush(now: start + .seconds(4)).isEmpty, "nothing newer: the burst ends")
        #expect(log.record(change("p1", "0.5"), burst: "slider", now: start + .seconds(5))?.id == 3, "a later drag is a new entry")
        #expect(log.record(change("p1", "play"), burst: nil, now: start + .seconds(5))?.id == 4)
        #expect(log.record(change("p1", "play"), burst: nil, now: start + .seconds(5))?.id == 5, "a command without a burst is never coalesced")
    }

    @Test func theLogKeepsTheLast500() {
        var log = ActivityLog()
        for index in 0..<(ActivityLog.capacity + 20) { _ = log.record(change("p1", "\(index)"), burst: nil, now: start) }
        #expect(log.entries.count == ActivityLog.capacity && log.entries.first?.summary == "20")
    }

    @Test func thirtyPointerMovesASecondAreRelayedAndTheRestDropped() {
        var rate = PointerRate()
        let relayed = (0..<40).filter { rate.admit(now: start + .milliseconds($0 * 10)) }
        #expect(relayed.count == PointerRate.perSecond)
        let early = rate.admit(now: start + .milliseconds(999)), late = rate.admit(now: start + .milliseconds(1000))
        #expect(!early)
        #expect(late, "the first of the window is a second old")
    }

    @Test func aChangeReadsAsASentence() {
        #expect(SessionCommand.setFilter(name: "sepia", params: [:]).summary(by: "Ana", chain: ["sepia"]) == "Ana switched the look to sepia")
        #expect(SessionCommand.setParams(["intensity": 0.8], index: nil).summary(by: "Ana", chain: ["sepia"]) == "Ana set sepia intensity 0.8")
        #expect(SessionCommand.seek(position: 83.4).summary(by: "Bob", chain: []) == "Bob jumped to 1:23.4")
        #expect(SessionCommand.speed(PlaybackRate(-0.5)!).summary(by: "Bob", chain: []) == "Bob set the speed to -0.5×")
        #expect(SessionCommand.loop(nil).summary(by: "Bob", chain: []) == "Bob ended the loop")
        #expect(SessionCommand.setParams(["a": 1], index: 1).burstKey != SessionCommand.setParams(["b": 1], index: 1).burstKey)
    }
}
