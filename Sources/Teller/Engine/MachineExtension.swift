/// What one kind of repository adds to the shared ``RepositoryStateMachine``: a pure machine of
/// its own that the shared one consults at fixed points. The shared machine owns requirements,
/// cache age and content, waiters, flights and automatic refreshes; an extension owns only what
/// its kind adds (paging), sees the shared state through ``MachineContext``, and asks for
/// changes through ``ExtensionEffect``s. It never edits the shared machine's output or keeps a
/// copy of its fields.
///
/// Each hook is called before the shared machine emits the state for the same input, so the
/// state shows the extension's change; the effects a hook returns are carried out after that.
protocol MachineExtension {
    associatedtype Requirements: RepositoryRequirements
    /// What the data source's cache observation emits.
    associatedtype Cache: Sendable
    /// The cache observers are shown.
    associatedtype Shown: Sendable
    /// What, besides the requirements, says which cache to observe.
    associatedtype View
    /// What the extension keeps in the metadata beside the fetch time.
    associatedtype StoredExtra
    associatedtype Input
    associatedtype Action

    typealias Effect = ExtensionEffect<Self>

    /// Whether flights must not be joined now (the extension writes to the cache); the shared
    /// machine holds joins back until an effect releases them.
    var holdsFlightJoins: Bool { get }

    /// New requirements are set; `hasCache` says whether they were fetched before.
    mutating func sessionStarted(_ requirements: Requirements, stored: StoredExtra?, hasCache: Bool)
    /// The requirements are replaced or the repository is gone: stop the extension's work.
    mutating func sessionEnded() -> [Effect]
    /// Whether an automatic refresh may start now; `isTooOld` says whether the cache is missing or
    /// older than its maximum age.
    func mayRefreshAutomatically(_ trigger: AutomaticRefresh, isTooOld: Bool) -> Bool
    /// The shared machine starts observing the cache: with which view, or `nil` to start it later
    /// (with an `.observeCache` effect) after what the returned effects start.
    mutating func viewForObserving() -> (view: View?, effects: [Effect])
    /// A waiter starts waiting while no other did: a flight begins.
    mutating func flightStarting() -> [Effect]
    /// The flight the waiters wait for saves its data now.
    mutating func flightSaving()
    /// One waiter's flight ended with `result`; `isLast` when no waiter of the repository waits
    /// any more. `saved` is what the repository's own flight saved beside the fetch time, `stored`
    /// what the metadata holds.
    mutating func flightFinished(
        _ result: RefreshResult,
        saved: StoredExtra?,
        stored: StoredExtra?,
        isLast: Bool,
        context: MachineContext
    ) -> [Effect]
    /// The cache observation delivered a value, failed, or emitted nothing when subscribed.
    mutating func cacheRead(_ reading: CacheReadOutcome) -> [Effect]
    /// A flight saved the tag (`stored` is its metadata now), or the metadata was cleared
    /// (`stored` is `nil`). Called for every change, in the order changes arrive: also while this
    /// repository's waiters wait (`context.isFetching`; the change may be their own flight's), and
    /// for a fetch time the shared machine already read at a flight's end.
    mutating func metadataChanged(stored: StoredExtra?, cleared: Bool, context: MachineContext) -> [Effect]
    mutating func handle(_ input: Input, context: MachineContext) -> [Effect]
    /// What observers are shown for `cache`.
    func present(_ cache: Cache) -> Shown
}

/// What a subscription to the cache brought.
enum CacheReadOutcome {
    case value
    case failed
    /// The subscription returned without a value: the data source's `observeCache` does not
    /// emit its current value when subscribed.
    case nothing
}

/// Why the shared machine considers an automatic refresh.
enum AutomaticRefresh {
    case requirementsSet
    case observed
    case cacheEmitted
    case metadataCleared
    /// The app became active or the network came back (``RefreshTrigger``).
    case appOrNetwork
}

/// The shared machine's state, as an extension may see it.
struct MachineContext {
    /// The shared machine wants the cache observed.
    let isObserving: Bool
    /// Waiters of this repository wait for a flight (or for a held join).
    let isFetching: Bool
}

/// What an extension asks the shared machine for.
enum ExtensionEffect<Extension: MachineExtension> {
    case extra(Extension.Action)
    /// Observe the cache with this view (restarting the observation).
    case observeCache(Extension.View)
    /// Emit the current state again: the extension's part of it changed.
    case emit
    /// Let flight joins held back by ``MachineExtension/holdsFlightJoins`` through.
    case releaseHeldJoins
    case log(TellerLogEvent)
    /// The extension's input changed nothing; why.
    case quiet(String)
}

/// The plain repository's extension: nothing to add.
struct NoExtension<Requirements: RepositoryRequirements, Cache: Sendable>: MachineExtension {
    typealias Shown = Cache
    typealias View = Void
    typealias StoredExtra = Never
    typealias Input = Never
    typealias Action = Never

    var holdsFlightJoins: Bool { false }

    func sessionStarted(_ requirements: Requirements, stored: Never?, hasCache: Bool) {}
    func sessionEnded() -> [Effect] { [] }
    func mayRefreshAutomatically(_ trigger: AutomaticRefresh, isTooOld: Bool) -> Bool { isTooOld }
    func viewForObserving() -> (view: Void?, effects: [Effect]) { ((), []) }
    func flightStarting() -> [Effect] { [] }
    func flightSaving() {}
    func flightFinished(
        _ result: RefreshResult,
        saved: Never?,
        stored: Never?,
        isLast: Bool,
        context: MachineContext
    ) -> [Effect] { [] }
    func cacheRead(_ reading: CacheReadOutcome) -> [Effect] { [] }
    func metadataChanged(stored: Never?, cleared: Bool, context: MachineContext) -> [Effect] { [] }
    func handle(_ input: Never, context: MachineContext) -> [Effect] {}
    func present(_ cache: Cache) -> Cache { cache }
}
