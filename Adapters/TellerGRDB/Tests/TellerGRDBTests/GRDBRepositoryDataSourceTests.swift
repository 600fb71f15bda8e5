import Dispatch
import Foundation
import GRDB
import Teller
import TellerGRDB
import TellerRx
import TellerTesting
import Testing

struct ReposRequirements: RepositoryRequirements {
    let username: String
    var tag: String { "Repos for \(username)" }
}

/// A README-style data source on a real database file: a plain class, not `Sendable`, with a
/// fetch the test sets.
final class ReposDataSource: GRDBRepositoryDataSource {
    let maxAgeOfCache = Period(unit: 1, component: .day)
    let database: any DatabaseWriter
    /// What each fetch returns, given how many fetches ran before it.
    var fetch: (Int) -> Single<FetchResponse<[String], any Error>> = { _ in .never() }
    private(set) var fetchCount = 0

    init(database: any DatabaseWriter) {
        self.database = database
    }

    func fetchFreshCache(requirements: ReposRequirements) -> Single<FetchResponse<[String], any Error>> {
        defer { fetchCount += 1 }
        return fetch(fetchCount)
    }

    func cacheRequest(requirements: ReposRequirements) -> @Sendable (Database) throws -> [String] {
        let owner = requirements.username
        return { db in
            try String.fetchAll(db, sql: "SELECT name FROM repo WHERE owner = ? ORDER BY name", arguments: [owner])
        }
    }

    func saveCache(_ names: [String], requirements: ReposRequirements, in db: Database) throws {
        try db.execute(sql: "DELETE FROM repo WHERE owner = ?", arguments: [requirements.username])
        for name in names {
            try db.execute(
                sql: "INSERT INTO repo (owner, name) VALUES (?, ?)",
                arguments: [requirements.username, name]
            )
        }
    }

    func isCacheEmpty(_ cache: [String], requirements: ReposRequirements) -> Bool {
        cache.isEmpty
    }
}

/// A repository over a ``GRDBRepositoryDataSource`` on a database file, on virtual time: one
/// `TestScheduler` is the UI and background scheduler and the clock.
@Suite struct GRDBRepositoryDataSourceTests {
    let scheduler = TestScheduler(initialClock: 0)
    let metadata = InMemoryFetchMetadataStore()
    let teller: Teller
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("teller-grdb-\(UUID().uuidString).sqlite")
    let octocat = ReposRequirements(username: "octocat")

    init() {
        let scheduler = self.scheduler
        teller = Teller(
            metadataStore: metadata,
            clock: { scheduler.now },
            uiScheduler: scheduler,
            backgroundScheduler: scheduler
        )
    }

    /// A database file with the repo table, as a queue or a pool (WAL mode).
    private func openDatabase(pool: Bool) throws -> any DatabaseWriter {
        let database: any DatabaseWriter =
            pool ? try DatabasePool(path: file.path) : try DatabaseQueue(path: file.path)
        try database.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE IF NOT EXISTS repo (
                        owner TEXT NOT NULL, name TEXT NOT NULL CHECK (name <> ''), PRIMARY KEY (owner, name))
                    """
            )
        }
        return database
    }

    private func removeDatabase() {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file.path + suffix) }
    }

    private func fetch(_ names: [String], after ticks: Int) -> Single<FetchResponse<[String], any Error>> {
        scheduler.createColdObservable([
            .next(ticks, FetchResponse<[String], any Error>.success(names)), .completed(ticks),
        ])
        .asSingle()
    }

    /// `time: cache` for every state, `noCache` or the cache's names.
    private func timeline(_ states: TestableObserver<CacheState<[String]>>) -> [String] {
        states.events.compactMap { recorded in
            guard let state = recorded.value.element else { return nil }
            let shown: String =
                switch state.state {
                case .noCache: state.isRefreshing ? "noCache, fetching" : "noCache"
                case .cache(let names?, _): names.joined(separator: " ")
                case .cache(nil, _): state.isLoadingCache ? "loading" : "empty"
                }
            return "\(recorded.time): \(shown)"
        }
    }

    @Test(arguments: [false, true])
    func theFetchIsSavedToTheDatabaseAndARelaunchShowsItWithoutFetching(pool: Bool) throws {
        defer { removeDatabase() }
        let dataSource = ReposDataSource(database: try openDatabase(pool: pool))
        dataSource.fetch = { _ in fetch(["teller", "teller-android"], after: 10) }
        let repository = TellerRepository(dataSource: dataSource, teller: teller)
        let states = scheduler.createObserver(CacheState<[String]>.self)
        scheduler.scheduleAt(100) {
            repository.requirements = octocat
            _ = repository.observe().subscribe(states)
        }
        withExtendedLifetime(repository) { scheduler.start() }

        #expect(timeline(states) == ["101: noCache, fetching", "113: loading", "115: teller teller-android"])
        let rows = try dataSource.database.read { db in try String.fetchAll(db, sql: "SELECT name FROM repo") }
        #expect(rows.sorted() == ["teller", "teller-android"])

        // A relaunch: a new connection to the same file.
        let relaunched = ReposDataSource(database: try openDatabase(pool: pool))
        let again = TellerRepository(dataSource: relaunched, teller: teller)
        let shown = scheduler.createObserver(CacheState<[String]>.self)
        scheduler.scheduleAt(200) {
            again.requirements = octocat
            _ = again.observe().subscribe(shown)
        }
        withExtendedLifetime(again) { scheduler.start() }
        #expect(timeline(shown) == ["201: loading", "203: teller teller-android"])
        #expect(relaunched.fetchCount == 0)
    }

    /// GRDB notices a commit on its own queues, in real time, so this test runs on real queues
    /// and waits for the states it expects (never for a duration).
    @Test func aWriteByAnotherPartOfTheAppIsShownAtOnce() throws {
        defer { removeDatabase() }
        let database = try openDatabase(pool: false)
        let dataSource = ReposDataSource(database: database)
        dataSource.fetch = { _ in .just(.success(["teller"])) }
        let teller = Teller(
            metadataStore: InMemoryFetchMetadataStore(),
            uiScheduler: SerialDispatchQueueScheduler(internalSerialQueueName: "teller-grdb-tests.ui"),
            backgroundScheduler: ConcurrentDispatchQueueScheduler(qos: .userInitiated)
        )
        let repository = TellerRepository(dataSource: dataSource, teller: teller)
        let fetched = DispatchSemaphore(value: 0)
        let written = DispatchSemaphore(value: 0)
        let subscription = repository.observe().subscribe(onNext: { state in
            if state.cache == ["teller"] { fetched.signal() }
            if state.cache == ["starred", "teller"] { written.signal() }
        })
        defer { subscription.dispose() }
        repository.requirements = octocat
        #expect(fetched.wait(timeout: .now() + 30) == .success)

        try database.write { db in
            try db.execute(sql: "INSERT INTO repo (owner, name) VALUES ('octocat', 'starred')")
            try db.execute(sql: "INSERT INTO repo (owner, name) VALUES ('someone else', 'theirs')")
        }
        #expect(written.wait(timeout: .now() + 30) == .success)
        #expect(dataSource.fetchCount == 1)
    }

    @Test func aSaveThatFailsRollsBackAndIsTheRefreshsError() throws {
        defer { removeDatabase() }
        let dataSource = ReposDataSource(database: try openDatabase(pool: false))
        // The second fetch's empty name breaks the CHECK constraint after "ok" was inserted.
        dataSource.fetch = { earlier in fetch(earlier == 0 ? ["teller"] : ["ok", ""], after: 10) }
        let repository = TellerRepository(dataSource: dataSource, teller: teller)
        let states = scheduler.createObserver(CacheState<[String]>.self)
        let results = scheduler.createObserver(RefreshResult.self)
        scheduler.scheduleAt(100) {
            repository.requirements = octocat
            _ = repository.observe().subscribe(states)
        }
        scheduler.scheduleAt(300) {
            _ = try? repository.refresh(force: true).asObservable().subscribe(results)
        }
        withExtendedLifetime(repository) { scheduler.start() }

        // The refresh ends in a state with its error; the old cache stays on screen throughout.
        let failed = try #require(states.events.first { $0.value.element?.refreshError != nil }?.value.element)
        #expect(failed.refreshError is DatabaseError)
        #expect(failed.cache == ["teller"])
        #expect(states.events.last?.value.element?.cache == ["teller"])
        guard case .next(.failedError(let error))? = results.events.first?.value else {
            Issue.record("expected a failed refresh, got \(results.events)")
            return
        }
        #expect((error as? DatabaseError)?.resultCode == .SQLITE_CONSTRAINT)
        let rows = try dataSource.database.read { db in try String.fetchAll(db, sql: "SELECT name FROM repo") }
        #expect(rows == ["teller"])
        #expect(metadata.metadata(forTag: octocat.tag)?.lastFetched == Date(timeIntervalSince1970: 112))
    }

    @Test func aReadThatFailsIsTheCachesReadError() throws {
        defer { removeDatabase() }
        let database = try openDatabase(pool: false)
        try database.write { db in try db.execute(sql: "DROP TABLE repo") }
        metadata.setMetadata(FetchMetadata(lastFetched: Date(timeIntervalSince1970: 0)), forTag: octocat.tag)
        let dataSource = ReposDataSource(database: database)
        let repository = TellerRepository(dataSource: dataSource, teller: teller)
        let states = scheduler.createObserver(CacheState<[String]>.self)
        scheduler.scheduleAt(100) {
            repository.requirements = octocat
            _ = repository.observe().subscribe(states)
        }
        withExtendedLifetime(repository) { scheduler.start() }

        #expect(states.events.last?.value.element?.cacheReadError is DatabaseError)
    }
}
