import Foundation
import TellerRx

/// Identifies one refresh waiter: a `refresh()` or `refreshIfNoCache()` call whose `Single` was
/// subscribed and has not been answered yet. Unique within one repository.
typealias WaiterID = UInt64

/// What Teller read from the metadata store for one tag, before a machine sees it: when the tag
/// was last fetched, and what the machine keeps beside that (a paging repository's first-page
/// progress; nothing for a plain one).
struct StoredFetch<Extra> {
    var lastFetched: Date
    var extra: Extra?
    /// ``Teller/invalidate(tag:)`` marked the data as too old, whatever its age.
    var isInvalidated = false
}

/// The decisions of one repository, free of threads and I/O. The ``RepositoryEngine`` feeds it one
/// ``EngineInput`` at a time and performs the ``EngineAction``s it returns, in order.
///
/// An input that makes no sense in the current state is ignored (and, where that can tell a
/// misbehaving data source apart, reported with a `.log` action), never a crash.
protocol EngineMachine {
    associatedtype Requirements: RepositoryRequirements
    /// What the data source's cache observation emits.
    associatedtype Cache: Sendable
    /// The cache observers are shown: `Cache` itself, or a paging repository's `PagedCache`.
    associatedtype Shown: Sendable
    /// What, besides the requirements, says which cache to observe: nothing, or the last page.
    associatedtype View
    /// What the machine keeps in the metadata beside the fetch time.
    associatedtype StoredExtra
    /// Inputs only this kind of repository has (next pages, the trim).
    associatedtype ExtraInput
    /// Actions only this kind of repository has.
    associatedtype ExtraAction

    /// The requirements the machine works for, once it processed them.
    var requirements: Requirements? { get }
    var isShutDown: Bool { get }

    mutating func makeWaiterID() -> WaiterID
    mutating func handle(_ input: EngineInput<Self>, now: Date) -> [EngineAction<Self>]
    /// Which refresh calls may join, without a trip through the mailbox, a flight this
    /// repository just joined for a waiter (see ``RefreshDesk``).
    func joinPolicy(now: Date) -> RefreshDesk.JoinPolicy
}

/// Something that happened to a repository, as its machine sees it. Metadata is read by the
/// engine right before the input is handled, so it is never older than the input.
enum EngineInput<Machine: EngineMachine> {
    case setRequirements(Machine.Requirements?, stored: StoredFetch<Machine.StoredExtra>?)
    /// `observe()` was subscribed: an automatic refresh check.
    case observed
    case refresh(WaiterID, force: Bool)
    case refreshIfNoCache(WaiterID)
    /// The flight `generation`'s waiters wait for fetched its data and saves it now.
    case flightSaving(generation: Int)
    /// The flight `generation`'s waiters wait for failed and waits to try again (`pending`), or
    /// its retry starts now (`nil`).
    case flightRetry(generation: Int, pending: PendingRetry?)
    /// A flight ended for `waiter`; `stored` is the tag's metadata after it, `saved` what this
    /// repository's own flight saved beside the fetch time, if it did since the last such input.
    case flightFinished(
        generation: Int,
        waiter: WaiterID,
        result: RefreshResult,
        stored: StoredFetch<Machine.StoredExtra>?,
        saved: Machine.StoredExtra?
    )
    case cacheEmitted(generation: Int, cache: Machine.Cache, isEmpty: Bool)
    case cacheFailed(generation: Int, error: any Error)
    /// The cache subscription returned without emitting a value.
    case cacheSilent(generation: Int)
    /// The metadata of `tag` changed (another repository fetched it, or it was cleared: `nil`),
    /// or only its invalidation mark did (`invalidation`).
    case metadataChanged(tag: String, stored: StoredFetch<Machine.StoredExtra>?, invalidation: Bool = false)
    case extra(Machine.ExtraInput)
    /// The repository got its first observer, or lost its last.
    case observersChanged(hasObservers: Bool)
    /// Something outside the repository asks observed repositories to refresh.
    case triggered(RefreshTrigger)
    /// The repository was released.
    case shutDown
}

/// What a machine asks its engine to do.
enum EngineAction<Machine: EngineMachine> {
    /// Deliver this state to observers (and remember it as the latest).
    case emit(CacheState<Machine.Shown>)
    /// Start observing the cache (replacing any observation); tag its events with `generation`.
    case observeCache(Machine.Requirements, Machine.View, generation: Int)
    case stopObservingCache
    /// Join (or start) the flight for `requirements` on behalf of `waiter`.
    case joinFlight(Machine.Requirements, generation: Int, waiter: WaiterID)
    /// Leave every flight this repository joined; their waiters are answered `.cancelled`.
    case leaveFlights
    /// Answer one waiter.
    case respond(WaiterID, RefreshResult)
    /// Run the refresh timer: send `.triggered(.interval)` every `interval` until stopped.
    case startRefreshTimer(RxTimeInterval)
    case stopRefreshTimer
    /// The repository is gone: complete observers.
    case complete
    case log(TellerLogEvent)
    case extra(Machine.ExtraAction)
}
