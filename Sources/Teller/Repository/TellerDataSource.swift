import TellerRx

/// What every data source tells Teller, paged or not: the requirements it works with, the error
/// its fetches fail with, and when its cache is refreshed.
///
/// Do not conform to it directly: implement ``RepositoryDataSource`` for a
/// ``TellerRepository`` or ``PagingRepositoryDataSource`` for a ``TellerPagingRepository``. The
/// two share these members and nothing else, so a data source built for one kind of repository
/// does not compile with the other.
public protocol TellerDataSource: SendableMetatype {
    /// The requirements type this data source works with.
    associatedtype Requirements: RepositoryRequirements
    /// The error type a fetch may fail with (`Error` for any).
    associatedtype FetchError: Error

    /// How old the cache may get before Teller refreshes it automatically.
    var maxAgeOfCache: Period { get }

    /// Whether Teller refreshes automatically: on setting requirements that were never fetched,
    /// on `observe()`, and whenever the cache emits while older than ``maxAgeOfCache``.
    /// Defaults to `true`.
    ///
    /// After a fetch or save fails, automatic refreshes of the same requirements pause until
    /// something new happens: requirements set again, a new `observe()`, an explicit refresh, or
    /// ``Teller/clear()``. A save that always fails therefore costs one fetch, not a loop.
    ///
    /// Declare it in the type that conforms to `RepositoryDataSource` or `PagingRepositoryDataSource`: Swift binds a protocol
    /// requirement at the conforming class, so a subclass's own `automaticallyRefresh` is not
    /// seen by Teller.
    var automaticallyRefresh: Bool { get }

    /// How this data source's failed fetches (a paging data source's next pages included) are
    /// tried again; `nil` (the default) uses the ``Teller/retryPolicy`` of the repository's
    /// ``Teller``.
    ///
    /// Declare it in the conforming type, like ``automaticallyRefresh``.
    var retryPolicy: RetryPolicy? { get }

    /// How often to refresh while, and only while, the repository is observed; `nil` (the
    /// default) never refreshes on a timer.
    ///
    /// Each interval fetches whatever the cache's age, unless a fetch for the tag is running
    /// already (then it is joined, never doubled). The timer starts when the repository gets its
    /// first observer and stops when the last one leaves, on the Teller's background scheduler.
    /// An interval of zero or less, or `.never`, is ignored and reported to the logger as
    /// ``TellerLogEvent/invalidConfiguration(_:)``.
    ///
    /// Declare it in the conforming type, like ``automaticallyRefresh``.
    var refreshInterval: RxTimeInterval? { get }
}

extension TellerDataSource {
    /// Automatic refresh is on unless a data source says otherwise.
    public var automaticallyRefresh: Bool {
        true
    }

    /// The Teller's retry policy applies unless a data source says otherwise.
    public var retryPolicy: RetryPolicy? {
        nil
    }

    /// No refresh on a timer unless a data source says otherwise.
    public var refreshInterval: RxTimeInterval? {
        nil
    }
}
