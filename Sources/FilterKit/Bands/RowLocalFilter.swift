/// A filter whose output rows depend only on the same rows of its input — each chroma row and
/// the two luma rows above it — and whose `apply` changes no state of its own (its tables are
/// built in `init`). A ``BandScheduler`` may therefore apply one instance to disjoint bands of a
/// frame (band views, see ``Frame``) on several threads at once.
///
/// `Sendable` makes the compiler check the "no state of its own" part: stored properties are
/// constants of sendable types. Position-dependent filters (vignette) and neighbourhood filters
/// (blurs) are not row-local.
public protocol RowLocalFilter: FrameFilter, Sendable {}
