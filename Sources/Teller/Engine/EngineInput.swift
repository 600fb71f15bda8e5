import Foundation

/// What Teller read from the metadata store for one tag, before a machine sees it: when the tag
/// was last fetched, and what the machine keeps beside that (a paging repository's first-page
/// progress; nothing for a plain one).
struct StoredFetch<Extra> {
    var lastFetched: Date
    var extra: Extra?
    /// ``Teller/invalidate(tag:)`` marked the data as too old, whatever its age.
    var isInvalidated = false
}

/// An observer of a repository's states, as its machine keeps it: a state, or `nil` for signed
/// out (see ``RepositoryEngine/sessionStates()``).
typealias EngineObserver<Extension: MachineExtension> = StateObserver<CacheState<Extension.Shown>?>

/// Something that happened to a repository, as its ``RepositoryMachine`` sees it (generic over
/// the repository kind's ``MachineExtension``, whose types it carries). Metadata is read by the
/// engine right before the input is handled, so it is never older than the input.
enum EngineInput<Extension: MachineExtension> {
    case setRequirements(Extension.Requirements?, stored: StoredFetch<Extension.StoredExtra>?)
    /// `observe()` was subscribed: an automatic refresh check.
    case observed
    /// Refresh calls, in the order they were made (the mailbox hands a burst over at once).
    case refresh([RefreshCall])
    /// A call's `Single` was disposed before it was answered.
    case refreshCallLeft(RefreshCall)
    /// The repository is out of the flight of the wait `flight`, as it asked; `stored` is the
    /// tag's metadata now.
    case flightLeft(UInt64, stored: StoredFetch<Extension.StoredExtra>?)
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
        stored: StoredFetch<Extension.StoredExtra>?,
        saved: Extension.StoredExtra?
    )
    case cacheEmitted(observation: Int, cache: Extension.Cache, isEmpty: Bool)
    case cacheFailed(observation: Int, error: any Error)
    /// The cache subscription returned without emitting a value.
    case cacheSilent(observation: Int)
    /// The metadata of `tag` changed (another repository fetched it, or it was cleared: `nil`),
    /// or only its invalidation mark did (`invalidation`).
    case metadataChanged(tag: String, stored: StoredFetch<Extension.StoredExtra>?, invalidation: Bool = false)
    case extra(Extension.Input)
    /// `observe()` was subscribed: the machine keeps the observer (under an id the mailbox
    /// minted, which its disposal names) and greets it.
    case observerAdded(EngineObserver<Extension>)
    /// The subscription of the observer `id` was disposed.
    case observerRemoved(UInt64)
    /// Something outside the repository asks observed repositories to refresh.
    case triggered(RefreshTrigger)
    /// The repository was released.
    case shutDown
}

extension EngineInput {
    /// Whether handling it may drop the machine's last reference to one of the app's values in
    /// ``RepositoryMachine/appValues`` (requirements, a cache, a kind's own state). Refresh calls,
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
