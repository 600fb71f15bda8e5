import GRDB
import Teller
import TellerRx

/// A `RepositoryDataSource` whose cache lives in a SQLite database, through GRDB.
///
/// Write the fetch, ``cacheRequest(requirements:)`` (how to read the cache) and
/// ``saveCache(_:requirements:in:)`` (how to write it); saving and observing come with it.
/// `observeCache` is a GRDB `ValueObservation` of the request: it emits the cache when
/// subscribed, and again after every committed transaction that changes what the request read,
/// whoever wrote it (this data source's saves, or any other part of the app).
///
/// ```swift
/// final class ReposDataSource: GRDBRepositoryDataSource {
///     let maxAgeOfCache = Period(unit: 5, component: .hour)
///     let database: any DatabaseWriter
///
///     init(database: any DatabaseWriter) {
///         self.database = database
///     }
///
///     func fetchFreshCache(requirements: ReposRequirements) -> Single<FetchResponse<[String], any Error>> {
///         api.repoNames(of: requirements.username).map { .success($0) }
///     }
///
///     func cacheRequest(requirements: ReposRequirements) -> @Sendable (Database) throws -> [String] {
///         let owner = requirements.username
///         return { db in try String.fetchAll(db, sql: "SELECT name FROM repo WHERE owner = ? ORDER BY name", arguments: [owner]) }
///     }
///
///     func saveCache(_ names: [String], requirements: ReposRequirements, in db: Database) throws {
///         try db.execute(sql: "DELETE FROM repo WHERE owner = ?", arguments: [requirements.username])
///         for name in names {
///             try db.execute(sql: "INSERT INTO repo (owner, name) VALUES (?, ?)", arguments: [requirements.username, name])
///         }
///     }
///
///     func isCacheEmpty(_ cache: [String], requirements: ReposRequirements) -> Bool {
///         cache.isEmpty
///     }
/// }
/// ```
///
/// Threads: `saveCache` runs on Teller's background scheduler and waits for the database's
/// writer; `observeCache` is subscribed on Teller's UI scheduler and reads the first value there,
/// before the subscription returns. Later values are read on GRDB's own queues and delivered to
/// Teller, which moves them to its UI scheduler. The request runs on GRDB's queues too: that is
/// why it is a `@Sendable` closure, built from the requirements' values, not a method of the data
/// source (which need not be `Sendable`).
public protocol GRDBRepositoryDataSource: RepositoryDataSource {
    /// The database the cache lives in: a `DatabaseQueue` or a `DatabasePool`.
    var database: any DatabaseWriter { get }

    /// How to read the cache for `requirements`. Called on the UI scheduler; the closure it returns
    /// runs on GRDB's queues, for the first value and after every change to what it read.
    ///
    /// - Parameter requirements: Whose cache to read.
    /// - Returns: A read of the cache, from values (not from `self`).
    func cacheRequest(requirements: Requirements) -> @Sendable (Database) throws -> Cache

    /// Writes a fetched value, inside a write transaction: an error rolls the whole save back.
    /// Called on the background scheduler.
    ///
    /// - Parameters:
    ///   - cache: The fetched value.
    ///   - requirements: Whose value it is.
    ///   - db: The database connection, in a transaction.
    /// - Throws: Any error; Teller shows it as the refresh's error and keeps the cache and its age.
    func saveCache(_ cache: FetchResult, requirements: Requirements, in db: Database) throws
}

extension GRDBRepositoryDataSource {
    /// Writes `cache` with ``saveCache(_:requirements:in:)`` in one transaction of
    /// ``database``. Called on the background scheduler.
    ///
    /// - Parameters:
    ///   - cache: The fetched value.
    ///   - requirements: Whose value it is.
    /// - Throws: What the write throws (a `DatabaseError`, or your own error); nothing is written then.
    public func saveCache(_ cache: FetchResult, requirements: Requirements) throws {
        try database.write { db in try saveCache(cache, requirements: requirements, in: db) }
    }

    /// A GRDB `ValueObservation` of ``cacheRequest(requirements:)`` in ``database``: the cache
    /// at once (read on the subscribing thread), then after every committed change to it. A read
    /// that fails ends the observable with the error, which Teller shows as the cache read error.
    ///
    /// - Parameter requirements: Whose cache to observe.
    /// - Returns: An observable of the cache.
    public func observeCache(requirements: Requirements) -> Observable<Cache> {
        ValueObservation.tracking(cacheRequest(requirements: requirements)).observable(in: database)
    }
}

extension GRDBRepositoryDataSource where Cache: Equatable {
    /// A GRDB `ValueObservation` of ``cacheRequest(requirements:)`` in ``database``, without
    /// consecutive equal values: the cache at once (read on the subscribing thread), then after
    /// every committed change that changes it. A `DatabasePool` may read the first value twice;
    /// the repeat is dropped. A read that fails ends the observable with the error, which Teller
    /// shows as the cache read error.
    ///
    /// - Parameter requirements: Whose cache to observe.
    /// - Returns: An observable of the cache.
    public func observeCache(requirements: Requirements) -> Observable<Cache> {
        ValueObservation.tracking(cacheRequest(requirements: requirements)).removeDuplicates().observable(in: database)
    }
}

extension ValueObservation where Reducer: ValueReducer, Reducer.Value: Sendable {
    /// The observation as an `Observable`: the current value on the subscribing thread before
    /// `subscribe` returns, then every change, on the queue GRDB notices it on. Disposing cancels
    /// the observation.
    ///
    /// - Parameter reader: The database to observe.
    /// - Returns: An observable of the values; it fails when a read fails, and never completes.
    public func observable(in reader: any DatabaseReader) -> Observable<Reducer.Value> {
        Observable.create { observer in
            let cancellable = start(
                in: reader,
                scheduling: SubscribingThreadScheduler(),
                onError: { error in observer.onError(error) },
                onChange: { value in observer.onNext(value) }
            )
            return Disposables.create { cancellable.cancel() }
        }
    }
}

/// Notifies the first value on the thread that starts the observation, before `start` returns
/// (Teller asks `observeCache` to emit at once), and later values on the queue GRDB notices them
/// on, which is serial per observation, so values stay in order.
private struct SubscribingThreadScheduler: ValueObservationScheduler {
    func immediateInitialValue() -> Bool {
        true
    }

    func schedule(_ action: @escaping @Sendable () -> Void) {
        action()
    }
}
