/// What one kind of repository adds to the shared ``RepositoryMachine``: a pure machine of
/// its own that the shared one consults at fixed points. The shared machine owns requirements,
/// cache age and content, waiters, flights and automatic refreshes; an extension owns only what
/// its kind adds (paging), sees the shared state through ``MachineContext``, and asks for
/// changes through ``ExtensionEffect``s. It never edits the shared machine's output or keeps a
/// copy of its fields.
///
/// Each hook is called before the shared machine emits the state for the same input, so the
/// state shows the extension's change; the effects a hook returns are carried out after that.
protocol MachineExtension {
    /// Whether flights must not be joined now (the extension writes to the cache); the shared
    /// machine holds joins back until an effect releases them.
    var holdsFlightJoins: Bool { get }

    /// New requirements are set; `hasCache` says whether they were fetched before. `stored` is
    /// what the metadata keeps beside the fetch time (sealed, of the kind's type). The effects
    /// prepare the cache before anything reads or writes it (a paged list trims the pages left
    /// from earlier), whether or not the repository is observed.
    mutating func sessionStarted(
        _ requirements: any RepositoryRequirements,
        stored: Parcel?,
        hasCache: Bool
    ) -> [ExtensionEffect]
    /// The requirements are replaced or the repository is gone: stop the extension's work.
    mutating func sessionEnded() -> [ExtensionEffect]
    /// Whether an automatic refresh may start now; `isTooOld` says whether the cache is missing or
    /// older than its maximum age.
    func mayRefreshAutomatically(_ trigger: AutomaticRefresh, isTooOld: Bool) -> Bool
    /// The shared machine starts observing the cache: with which view (sealed), or `nil` to start
    /// it later (with an `.observeCache` effect), once what ``sessionStarted(_:stored:hasCache:)``
    /// started is done.
    func viewForObserving() -> Parcel?
    /// A waiter starts waiting while no other did: a flight begins.
    mutating func flightStarting() -> [ExtensionEffect]
    /// The flight the waiters wait for saves its data now.
    mutating func flightSaving()
    /// One waiter's flight ended with `result`; `isLast` when no waiter of the repository waits
    /// any more. `saved` is what the repository's own flight saved beside the fetch time, `stored`
    /// what the metadata holds (both sealed).
    mutating func flightFinished(
        _ result: RefreshResult,
        saved: Parcel?,
        stored: Parcel?,
        isLast: Bool,
        context: MachineContext
    ) -> [ExtensionEffect]
    /// The cache observation delivered a value, failed, or emitted nothing when subscribed.
    mutating func cacheRead(_ reading: CacheReadOutcome) -> [ExtensionEffect]
    /// A flight saved the tag (`stored` is its metadata now), or the metadata was cleared
    /// (`stored` is `nil`). Called for every change, in the order changes arrive: also while this
    /// repository's waiters wait (`context.isFetching`; the change may be their own flight's), and
    /// for a fetch time the shared machine already read at a flight's end.
    mutating func metadataChanged(stored: Parcel?, cleared: Bool, context: MachineContext) -> [ExtensionEffect]
    /// An input only this kind has (sealed, of the kind's input type).
    mutating func handle(_ input: Parcel, context: MachineContext) -> [ExtensionEffect]
    /// What observers are shown for `cache` (both sealed).
    func present(_ cache: Parcel) -> Parcel
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
enum ExtensionEffect {
    /// An action only this kind has (sealed, of the kind's action type).
    case extra(Parcel)
    /// Observe the cache with this view (sealed; restarting the observation).
    case observeCache(Parcel)
    /// Emit the current state again: the extension's part of it changed.
    case emit
    /// Let flight joins held back by ``MachineExtension/holdsFlightJoins`` through.
    case releaseHeldJoins
    case log(TellerLogEvent)
    /// The extension's input changed nothing; why.
    case quiet(String)
}

/// The plain repository's extension: nothing to add.
struct NoExtension: MachineExtension {
    /// The view a plain repository observes its cache with: none.
    static let view = Sealed(())

    var holdsFlightJoins: Bool { false }

    func sessionStarted(
        _ requirements: any RepositoryRequirements,
        stored: Parcel?,
        hasCache: Bool
    ) -> [ExtensionEffect] {
        []
    }
    func sessionEnded() -> [ExtensionEffect] { [] }
    func mayRefreshAutomatically(_ trigger: AutomaticRefresh, isTooOld: Bool) -> Bool { isTooOld }
    func viewForObserving() -> Parcel? { Self.view }
    func flightStarting() -> [ExtensionEffect] { [] }
    func flightSaving() {}
    func flightFinished(
        _ result: RefreshResult,
        saved: Parcel?,
        stored: Parcel?,
        isLast: Bool,
        context: MachineContext
    ) -> [ExtensionEffect] { [] }
    func cacheRead(_ reading: CacheReadOutcome) -> [ExtensionEffect] { [] }
    func metadataChanged(stored: Parcel?, cleared: Bool, context: MachineContext) -> [ExtensionEffect] { [] }
    func handle(_ input: Parcel, context: MachineContext) -> [ExtensionEffect] { [.quiet("no input of its own")] }
    func present(_ cache: Parcel) -> Parcel { cache }
}
