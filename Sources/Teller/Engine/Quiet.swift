/// Why an input led to nothing outside the machine: every input the machine handles returns at
/// least one action, and ``EngineAction/quiet(_:)`` with one of these when none is needed. The
/// engine does nothing with it; the randomized machine tests check that each quiet input says
/// why, and that the reason is one the scenario allows (a stale flight event is expected after a
/// cancellation, a cache emitted while not observed only from a misbehaving data source).
enum Quiet: Equatable, Sendable {
    /// The repository was released.
    case shutDown
    /// No requirements are set.
    case noRequirements
    /// An event of a flight the repository no longer waits for (it left or is leaving, or its
    /// requirements changed); or a retry notice that changes nothing shown.
    case otherFlight
    /// An event of a cache observation that is not the current one (an earlier requirements'
    /// or one that was stopped). Logged as ``TellerLogEvent/eventIgnored(tag:event:)``: a data
    /// source that emits after it was disposed misbehaves.
    case otherObservation
    /// The cache emitted while the flight it waits for saves: the flight's end reads it again.
    case pausedForSave
    /// The metadata of another tag changed.
    case otherTag
    /// The metadata changed in nothing this repository shows.
    case unchanged
    /// Kept in the machine, shown later: an invalidation mark or a save noted while a flight
    /// runs (its end reads them), or an observer that left.
    case noted
    /// A call that was answered or left already.
    case callGone
    /// An observer that left already, or was completed at shut-down.
    case observerGone
    /// A refresh trigger, for a repository nobody observes, that waits for a flight already, or
    /// whose cache needs no refresh.
    case noRefreshNeeded
    /// The repository kind's own input changed nothing; the text says why (a next page asked
    /// for while one loads, or when no more exist; an answer of a next page no longer wanted).
    case extensionInput(String)
}
