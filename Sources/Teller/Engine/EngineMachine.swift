import Foundation
import TellerRx

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
    /// A copy of the app's values the machine holds (requirements, cache, what a kind keeps), for
    /// the engine to release outside its lock after an input: the input may drop the machine's
    /// last reference. Nothing the machine appends to in place (the waiting calls): copying those
    /// would copy them on the next append.
    associatedtype AppValues
    var appValues: AppValues { get }
    var isShutDown: Bool { get }
    /// Who observes the repository's states now, in the order they came.
    var observers: [EngineObserver<Self>] { get }

    mutating func handle(_ input: EngineInput<Self>, now: Date) -> [EngineAction<Self>]
}

/// An observer of a repository's states, as its machine keeps it: a state, or `nil` for signed
/// out (see ``RepositoryEngine/sessionStates()``).
typealias EngineObserver<Machine: EngineMachine> = StateObserver<CacheState<Machine.Shown>?>

/// Something that happened to a repository, as its machine sees it. Metadata is read by the
/// engine right before the input is handled, so it is never older than the input.
enum EngineInput<Machine: EngineMachine> {
    case setRequirements(Machine.Requirements?, stored: StoredFetch<Machine.StoredExtra>?)
    /// `observe()` was subscribed: an automatic refresh check.
    case observed
    /// Refresh calls, in the order they were made (the mailbox hands a burst over at once).
    case refresh([RefreshCall])
    /// A call's `Single` was disposed before it was answered.
    case refreshCallLeft(RefreshCall)
    /// The repository is out of the flight of the wait `flight`, as it asked; `stored` is the
    /// tag's metadata now.
    case flightLeft(UInt64, stored: StoredFetch<Machine.StoredExtra>?)
    /// The flight of the wait `flight` (an id the machine minted) fetched its data and saves it.
    case flightSaving(UInt64)
    /// The flight of the wait `flight` failed and waits to try again (`pending`), or its retry
    /// starts now (`nil`).
    case flightRetry(UInt64, pending: PendingRetry?)
    /// The flight of the wait `flight` ended; `stored` is the tag's metadata after it, `saved`
    /// what its save brought beside the data (a paging first page's progress).
    case flightFinished(
        UInt64,
        result: RefreshResult,
        stored: StoredFetch<Machine.StoredExtra>?,
        saved: Machine.StoredExtra?
    )
    case cacheEmitted(observation: Int, cache: Machine.Cache, isEmpty: Bool)
    case cacheFailed(observation: Int, error: any Error)
    /// The cache subscription returned without emitting a value.
    case cacheSilent(observation: Int)
    /// The metadata of `tag` changed (another repository fetched it, or it was cleared: `nil`),
    /// or only its invalidation mark did (`invalidation`).
    case metadataChanged(tag: String, stored: StoredFetch<Machine.StoredExtra>?, invalidation: Bool = false)
    case extra(Machine.ExtraInput)
    /// `observe()` was subscribed: the machine keeps the observer (under an id the mailbox
    /// minted, which its disposal names) and greets it.
    case observerAdded(EngineObserver<Machine>)
    /// The subscription of the observer `id` was disposed.
    case observerRemoved(UInt64)
    /// Something outside the repository asks observed repositories to refresh.
    case triggered(RefreshTrigger)
    /// The repository was released.
    case shutDown
}

extension EngineInput {
    /// Whether handling it may drop the machine's last reference to one of the app's values in
    /// ``EngineMachine/appValues`` (requirements, a cache, a kind's own state). Refresh calls,
    /// flight progress, a new observer and triggers never replace them; a removed observer (the
    /// app's closures) is one of them.
    var mayReleaseAppValues: Bool {
        switch self {
        case .refresh, .refreshCallLeft, .flightSaving, .flightRetry, .observerAdded, .triggered: false
        case .setRequirements, .observed, .flightLeft, .flightFinished, .cacheEmitted, .cacheFailed, .cacheSilent,
            .metadataChanged, .extra, .observerRemoved, .shutDown:
            true
        }
    }
}

/// What a machine asks its engine to do.
enum EngineAction<Machine: EngineMachine> {
    /// Deliver this state to observers (and remember it as the latest).
    case emit(CacheState<Machine.Shown>)
    /// The requirements were set to `nil` (a sign-out): tell the observers that see it (see
    /// ``RepositoryEngine/sessionStates()``), and remember it as the latest.
    case emitSignedOut
    /// Start observing the cache (replacing any observation); tag its events with `observation`,
    /// a number the machine minted for it.
    case observeCache(Machine.Requirements, Machine.View, observation: Int)
    case stopObservingCache
    /// Join (or start) the flight for `requirements` for the wait `flight`; its events carry
    /// that id.
    case joinFlight(Machine.Requirements, flight: UInt64)
    /// Leave the flight of the wait `flight` (nothing waits for it here any more), and send
    /// `.flightLeft` once out; a flight that saves keeps the repository until it ends.
    case leaveFlight(UInt64)
    /// Answer these calls.
    case respond([RefreshCall], RefreshResult)
    /// Run the refresh timer: send `.triggered(.interval)` every `interval` until stopped.
    case startRefreshTimer(RxTimeInterval)
    case stopRefreshTimer
    /// Send `observer` the latest state, if one was emitted yet: it was just added.
    case greet(EngineObserver<Machine>)
    /// The repository is gone: complete these observers (every one it had, or one that came
    /// after).
    case complete([EngineObserver<Machine>])
    case log(TellerLogEvent)
    /// Nothing to do outside the machine, and why (see ``Quiet``).
    case quiet(Quiet)
    /// Log these events, in order (one action for a burst of refresh calls).
    case logs([TellerLogEvent])
    case extra(Machine.ExtraAction)
}
