import Foundation

/// What Teller read from the metadata store for one tag, before a machine sees it: when the tag
/// was last fetched, and what the repository kind keeps beside that (sealed: a paging
/// repository's first-page progress; nothing for a plain one).
struct StoredFetch {
    var lastFetched: Date
    var extra: Parcel?
    /// ``Teller/invalidate(tag:)`` marked the data as too old, whatever its age.
    var isInvalidated = false
}

/// Something that happened to a repository, as its ``RepositoryMachine`` sees it. The app's
/// values travel sealed (a ``Parcel``, or the requirements as an existential), so the machine is
/// compiled once, for every repository, with no run-time type lookups. Metadata is read by the
/// engine right before the input is handled, so it is never older than the input.
enum EngineInput {
    /// New requirements (`nil`: signed out), with their tag's metadata and the app's writes to
    /// it in outboxes.
    case setRequirements((any RepositoryRequirements)?, stored: StoredFetch?, writes: TagWrites = TagWrites())
    /// `observe()` was subscribed: an automatic refresh check.
    case observed
    /// Refresh calls, in the order they were made (the mailbox hands a burst over at once).
    case refresh([RefreshCall])
    /// A call's `Single` was disposed before it was answered.
    case refreshCallLeft(RefreshCall)
    /// The repository is out of the flight of the wait `flight`, as it asked; `stored` is the
    /// tag's metadata now.
    case flightLeft(UInt64, stored: StoredFetch?)
    /// The flight of the wait `flight` (an id the machine minted) fetched its data and saves it.
    case flightSaving(UInt64)
    /// The flight of the wait `flight` failed and waits to try again (`pending`), or its retry
    /// starts now (`nil`).
    case flightRetry(UInt64, pending: PendingRetry?)
    /// The flight of the wait `flight` ended; `stored` is the tag's metadata after it, `saved`
    /// what its save brought beside the data (a paging first page's progress, sealed).
    case flightFinished(UInt64, result: RefreshResult, stored: StoredFetch?, saved: Parcel?)
    /// The cache observation emitted `cache` (sealed, of the data source's cache type).
    case cacheEmitted(observation: Int, cache: Parcel, isEmpty: Bool)
    case cacheFailed(observation: Int, error: any Error)
    /// The cache subscription returned without emitting a value.
    case cacheSilent(observation: Int)
    /// The metadata of `tag` changed (another repository fetched it, or it was cleared: `nil`),
    /// or only its invalidation mark did (`invalidation`).
    case metadataChanged(tag: String, stored: StoredFetch?, invalidation: Bool = false)
    /// An input only this kind of repository has (sealed, of its extension's input type).
    case extra(Parcel)
    /// `observe()` was subscribed: the machine keeps the observer (under an id the mailbox
    /// minted, which its disposal names) and greets it.
    case observerAdded(StateObserver)
    /// The subscription of the observer `id` was disposed.
    case observerRemoved(UInt64)
    /// The app's writes to the tag in outboxes changed (those waiting, or their failures): this
    /// is how they stand now; `sent` left because the server took them.
    case writesChanged(TagWrites, sent: [OutboxRecord] = [])
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
        case .refresh, .refreshCallLeft, .flightSaving, .flightRetry, .observerAdded, .triggered, .writesChanged:
            false
        case .setRequirements, .observed, .flightLeft, .flightFinished, .cacheEmitted, .cacheFailed, .cacheSilent,
            .metadataChanged, .extra, .observerRemoved, .shutDown:
            true
        }
    }
}

/// Requirements a machine holds, as the repository's own type: the engine that set them, and
/// the kind's extension, know it. Anything else is a defect in Teller, not the app's mistake.
func typedRequirements<Requirements: RepositoryRequirements>(
    _ requirements: any RepositoryRequirements,
    as type: Requirements.Type
) -> Requirements {
    guard let typed = requirements as? Requirements else {
        fatalError("a machine of \(Requirements.self) requirements holds \(Swift.type(of: requirements))")
    }
    return typed
}
