/// Which fetch metadata changed, so every live repository showing it updates at once.
enum MetadataChange: Sendable {
    /// One tag was fetched or forgotten.
    case tag(String)
    /// The flight numbered `flight` (see ``FlightContext/flight``) saved what it fetched for
    /// `tag`. Its members learn that from the flight's end, which reads the metadata anew: only
    /// the other repositories showing the tag need this notice.
    case saved(String, flight: UInt64)
    /// Every tag was forgotten (``Teller/clear()``).
    case all
    /// The tags of a branch were forgotten (``Teller/clear(tagsUnder:)``).
    case tagsUnder(TagPrefix)
    /// One tag was marked too old (``Teller/invalidate(tag:)``).
    case invalidated(String)
    /// The tags of a branch were marked too old (``Teller/invalidate(tagsUnder:)``).
    case invalidatedUnder(TagPrefix)
    /// Every tag was marked too old (``Teller/invalidateAll()``).
    case allInvalidated

    /// Whether a repository showing `tag` is concerned.
    func concerns(_ tag: String) -> Bool {
        switch self {
        case .tag(let changed), .saved(let changed, _), .invalidated(let changed): changed == tag
        case .tagsUnder(let prefix), .invalidatedUnder(let prefix): prefix.contains(tag)
        case .all, .allInvalidated: true
        }
    }

    /// Whether only invalidation marks changed: every tag's fetch time and stored extra (a paged
    /// list's progress) are what they were, so no page was replaced.
    var isInvalidation: Bool {
        switch self {
        case .invalidated, .invalidatedUnder, .allInvalidated: true
        case .tag, .saved, .tagsUnder, .all: false
        }
    }
}

/// Something outside a repository that may make it refresh.
enum RefreshTrigger: Sendable {
    /// ``Teller/appDidBecomeActive()``: refresh what is observed and too old.
    case appBecameActive
    /// ``Teller/networkDidBecomeAvailable()``: refresh what is observed and too old.
    case networkAvailable
    /// The data source's ``TellerDataSource/refreshInterval`` passed while observed.
    case interval
}

/// What a ``Teller`` tells every live repository it runs.
enum RepositoryNotice: Sendable {
    case metadataChanged(MetadataChange)
    case refresh(RefreshTrigger)
    /// The app's writes to `tag` in an outbox (`nil`: to any tag) changed, those waiting or their
    /// failures; `sent` left because the server took them (this process's send, or another's).
    case writesChanged(tag: String?, sent: [OutboxRecord])
}
