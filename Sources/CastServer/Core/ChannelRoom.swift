import CastProtocol

/// One channel's review room: who is on it, who presents, who changed what, and how fast each
/// person's pointer may go. The core keeps one per channel (``ServerCore/rooms``) while the
/// channel exists, so its activity outlives the people who made it. Service thread only.
final class ChannelRoom {
    var presence = Presence()
    var presenter = Presenter()
    var activity = ActivityLog()
    /// Who made the latest change (`state.changedBy`).
    var changedBy: Author?
    /// Entries recorded and not yet told (``ServerCore/tellActivity(_:)``): a command's
    /// answer goes before the activity it made.
    var due: [ActivityEntry] = []
    /// Each pointing person's rate, by key (forgotten when they leave).
    var pointerRates: [String: PointerRate] = [:]
    /// The comment whose drawing everyone is shown (`state.showing`) until the playhead moves.
    var showing: String?
    /// The source (``SourceKey``) whose comments the viewers were last told.
    var commentSource: String?
}
