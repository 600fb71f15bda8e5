import Foundation
import Teller
@_spi(TellerInternals) import TellerRx

extension TellerRepository {
    /// Puts a real repository into a known state before an integration test: no cache, an
    /// empty cache, or a given cache, of any age. It only writes the state; the repository acts
    /// on it once `requirements` are set, as in an app:
    ///
    /// ```swift
    /// _ = TellerRepository.testing.initState(repository: repository, requirements: requirements) {
    ///     $0.cache("existing-cache") {
    ///         $0.cacheTooOld()
    ///     }
    /// }
    /// // Script the data source's fetch here, then let the code under test run:
    /// repository.requirements = requirements   // refreshes: the cache is too old
    /// ```
    public static var testing: TellerRepositoryTesting<DataSource> {
        TellerRepositoryTesting()
    }
}

/// The `TellerRepository.testing` helpers.
///
/// Each helper saves the cache through the data source's `saveCache` and writes the tag's fetch
/// metadata through the repository's `Teller.metadataStore`, with ages computed from the
/// repository's injectable clock (`Teller.now`), and does nothing more. As with Teller-iOS's
/// `initState`, it does not set the repository's `requirements` and starts no fetch: it leaves
/// the repository as an app relaunched in that state finds it before the app's code runs. Script
/// your data source, then set `requirements` (or let the code under test set them): from then
/// on the repository behaves as the state says. With automatic refresh, a `noCache()` or
/// `cacheTooOld()` state starts exactly one fetch at that moment.
///
/// Call it before `requirements` are set: a repository that already shows the tag (this one
/// or another) does not notice the change until its requirements are set again. Between tests,
/// `Teller.clear()` forgets every tag's metadata; the data source's own storage is yours to
/// clear.
public struct TellerRepositoryTesting<DataSource: RepositoryDataSource>: Sendable {
    init() {}

    /// Sets up `repository` for `requirements` as `more` describes, saving the cache on the
    /// calling thread. Without `more` the repository has no cache. Set the repository's
    /// `requirements` afterwards; nothing runs until then.
    ///
    /// If the data source's `saveCache` throws, a warning is printed, no metadata is written
    /// (the repository has no cache), and the error is in the result's
    /// ``InitStateResult/saveError``. Use ``initStateAsync(repository:requirements:more:)`` to
    /// receive it as an error, or when `saveCache` must run on the background scheduler.
    ///
    /// - Parameters:
    ///   - repository: The repository to set up; its `requirements` are left as they are.
    ///   - requirements: The requirements whose state is set.
    ///   - more: Describes the state; see ``RepositoryStateDsl``.
    /// - Returns: The fetch time written, if any.
    @discardableResult
    public func initState(
        repository: TellerRepository<DataSource>,
        requirements: DataSource.Requirements,
        more: (inout RepositoryStateDsl<DataSource.FetchResult>) -> Void = { _ in }
    ) -> InitStateResult {
        let state = InitialState(dsl: InitStateSteps.describe(more))
        return InitStateSteps.run(cacheName: "cache", tag: requirements.tag) {
            state.apply(to: repository, requirements: requirements)
        }
    }

    /// Sets up `repository` for `requirements` as `more` describes, saving the cache on the
    /// repository's `Teller.backgroundScheduler`. Nothing happens until the returned
    /// `Single` is subscribed; it succeeds, on the background scheduler, once the state is
    /// written. Set the repository's `requirements` after that.
    ///
    /// - Parameters:
    ///   - repository: The repository to set up; its `requirements` are left as they are.
    ///   - requirements: The requirements whose state is set.
    ///   - more: Describes the state; see ``RepositoryStateDsl``. Runs at once, on the calling
    ///     thread.
    /// - Returns: A `Single` with the fetch time written. It fails with the data source's error
    ///   if `saveCache` throws; no metadata is written then.
    public func initStateAsync(
        repository: TellerRepository<DataSource>,
        requirements: DataSource.Requirements,
        more: (inout RepositoryStateDsl<DataSource.FetchResult>) -> Void = { _ in }
    ) -> Single<InitStateResult> {
        let state = InitialState(dsl: InitStateSteps.describe(more))
        return InitStateSteps.runAsync(
            on: repository.teller.backgroundScheduler,
            write: UncheckedSendable { state.apply(to: repository, requirements: requirements) }
        )
    }

    /// Teller-iOS's callback form of ``initStateAsync(repository:requirements:more:)``: starts at
    /// once and calls `onComplete` on the background scheduler when the state is written (with
    /// ``InitStateResult/saveError`` set if `saveCache` threw). Set the repository's
    /// `requirements` after that.
    ///
    /// - Parameters:
    ///   - repository: The repository to set up; its `requirements` are left as they are.
    ///   - requirements: The requirements whose state is set.
    ///   - onComplete: Called once, on the background scheduler.
    ///   - more: Describes the state; see ``RepositoryStateDsl``.
    public func initStateAsync(
        repository: TellerRepository<DataSource>,
        requirements: DataSource.Requirements,
        onComplete: @escaping @Sendable (InitStateResult) -> Void,
        more: (inout RepositoryStateDsl<DataSource.FetchResult>) -> Void = { _ in }
    ) {
        let state = InitialState(dsl: InitStateSteps.describe(more))
        // Unchecked: as for `initStateAsync(repository:requirements:more:)`.
        let write = UncheckedSendable { state.apply(to: repository, requirements: requirements) }
        _ = repository.teller.backgroundScheduler.schedule(()) { _ in
            onComplete(write.value())
            return Disposables.create()
        }
    }
}

/// What ``TellerRepositoryTesting`` did.
public struct InitStateResult: Sendable, Equatable, CustomStringConvertible {
    /// The fetch time written for the tag, or `nil` when the repository has no cache.
    public let lastFetched: Date?
    /// The error `saveCache` threw, if it did (the repository then has no cache).
    public let saveError: (any Error)?

    /// Creates a result.
    ///
    /// - Parameters:
    ///   - lastFetched: The fetch time written, or `nil`.
    ///   - saveError: The error `saveCache` threw, or `nil`.
    public init(lastFetched: Date?, saveError: (any Error)? = nil) {
        self.lastFetched = lastFetched
        self.saveError = saveError
    }

    /// Results are equal when their fetch times are, and their errors have the same type and
    /// description.
    public static func == (lhs: InitStateResult, rhs: InitStateResult) -> Bool {
        guard lhs.lastFetched == rhs.lastFetched else { return false }
        switch (lhs.saveError, rhs.saveError) {
        case (nil, nil): return true
        case (let left?, let right?):
            return ObjectIdentifier(type(of: left)) == ObjectIdentifier(type(of: right))
                && String(reflecting: left) == String(reflecting: right)
        default: return false
        }
    }

    /// A description such as `lastFetched 2026-01-01 10:00:00 +0000` or `no cache`.
    public var description: String {
        var text = lastFetched.map { "lastFetched \($0)" } ?? "no cache"
        if let saveError { text += ", saveError \(saveError)" }
        return text
    }
}

/// Describes the state ``TellerRepositoryTesting`` sets up. The last call wins; with no call
/// the repository has no cache.
public struct RepositoryStateDsl<FetchResult> {
    enum Existence {
        case noCache
        case cacheEmpty
        case cache(FetchResult)
    }

    var existence = Existence.noCache
    var age = CacheAgeDsl()

    init() {}

    /// No cache: the tag was never fetched successfully (its metadata is removed). With
    /// automatic refresh, the repository starts its first fetch when the requirements are set.
    public mutating func noCache() {
        existence = .noCache
        age = CacheAgeDsl()
    }

    /// The tag was fetched successfully and the cache is empty. Nothing is saved: the data
    /// source's storage must hold nothing for these requirements (clear it in your set-up).
    ///
    /// - Parameter more: Says how old the cache is; not too old by default.
    public mutating func cacheEmpty(more: (inout CacheAgeDsl) -> Void = { _ in }) {
        existence = .cacheEmpty
        age = CacheAgeDsl()
        more(&age)
    }

    /// The tag was fetched successfully and `cache` was saved (through the data source's
    /// `saveCache`).
    ///
    /// - Parameters:
    ///   - cache: What to save, as a fetch would have returned it.
    ///   - more: Says how old the cache is; not too old by default.
    public mutating func cache(_ cache: FetchResult, more: (inout CacheAgeDsl) -> Void = { _ in }) {
        existence = .cache(cache)
        age = CacheAgeDsl()
        more(&age)
    }
}

/// Says how old an existing cache is, relative to the repository's clock
/// (`Teller.now`) and its data source's `RepositoryDataSource.maxAgeOfCache`.
/// The last call wins; the default is ``cacheNotTooOld()``.
public struct CacheAgeDsl: Sendable {
    enum Age {
        case notTooOld
        case tooOld
        case lastFetched(Date)
    }

    var age = Age.notTooOld

    init() {}

    /// The cache is older than `maxAgeOfCache`: fetched one hour before the oldest time that
    /// still counts as fresh. With automatic refresh, the repository refreshes as soon as its
    /// requirements are set, and `refresh(force: false)` fetches.
    public mutating func cacheTooOld() {
        age = .tooOld
    }

    /// The cache was fetched just now, so it is younger than `maxAgeOfCache` (unless that is
    /// zero or less, which makes every cache too old): the repository does not refresh on its
    /// own, and `refresh(force: false)` is skipped.
    public mutating func cacheNotTooOld() {
        age = .notTooOld
    }

    /// The cache was fetched at `lastFetched`.
    ///
    /// - Parameter lastFetched: The fetch time to record.
    public mutating func lastFetched(_ lastFetched: Date) {
        age = .lastFetched(lastFetched)
    }

    func lastFetched(now: Date, maxAgeOfCache: Period) -> Date {
        switch age {
        case .notTooOld: now
        case .tooOld: maxAgeOfCache.date(before: now).addingTimeInterval(-60 * 60)
        case .lastFetched(let date): date
        }
    }
}

/// A described state, ready to be written.
private struct InitialState<FetchResult> {
    let dsl: RepositoryStateDsl<FetchResult>

    func apply<DataSource: RepositoryDataSource>(
        to repository: TellerRepository<DataSource>,
        requirements: DataSource.Requirements
    ) -> InitStateResult where DataSource.FetchResult == FetchResult {
        let teller = repository.teller
        let tag = requirements.tag
        var result = InitStateResult(lastFetched: nil)
        switch dsl.existence {
        case .noCache:
            break
        case .cacheEmpty:
            result = InitStateResult(lastFetched: lastFetched(repository))
        case .cache(let cache):
            do {
                try repository.dataSource.saveCache(cache, requirements: requirements)
                result = InitStateResult(lastFetched: lastFetched(repository))
            } catch {
                result = InitStateResult(lastFetched: nil, saveError: error)
            }
        }
        do {
            try teller.metadataStore.setMetadata(result.lastFetched.map { FetchMetadata(lastFetched: $0) }, forTag: tag)
        } catch {
            // The store keeps the value in memory for this process, which is all a test needs.
            printWarning("TellerTesting: the fetch metadata for \"\(tag)\" is not durable: \(error)")
        }
        return result
    }

    private func lastFetched<DataSource: RepositoryDataSource>(_ repository: TellerRepository<DataSource>) -> Date {
        dsl.age.lastFetched(now: repository.teller.now, maxAgeOfCache: repository.dataSource.maxAgeOfCache)
    }
}

func printWarning(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
