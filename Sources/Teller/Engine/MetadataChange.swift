/// Which fetch metadata changed, so every live repository showing it updates at once.
enum MetadataChange: Sendable {
    /// One tag was fetched, forgotten or invalidated.
    case tag(String)
    /// Every tag was forgotten (``Teller/clear()``) or invalidated (``Teller/invalidateAll()``).
    case all

    /// Whether a repository showing `tag` is concerned.
    func concerns(_ tag: String) -> Bool {
        switch self {
        case .tag(let changed): changed == tag
        case .all: true
        }
    }
}

/// Something outside a repository that may make it refresh.
enum RefreshTrigger: Sendable {
    /// ``Teller/appDidBecomeActive()``: refresh what is observed and too old.
    case appBecameActive
    /// ``Teller/networkDidBecomeAvailable()``: refresh what is observed and too old.
    case networkAvailable
    /// The data source's ``RepositoryDataSource/refreshInterval`` passed while observed.
    case interval
}

/// What a ``Teller`` tells every live repository it runs.
enum RepositoryNotice: Sendable {
    case metadataChanged(MetadataChange)
    case refresh(RefreshTrigger)
}
