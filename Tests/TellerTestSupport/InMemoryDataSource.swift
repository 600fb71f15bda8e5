import Foundation
import Teller
@_spi(TellerInternals) import TellerRx

/// A real data source over an in-memory cache, with a fetch the test controls.
///
/// The cache emits its current value on subscription and again after every save, like a
/// database query would. Calls are counted so tests can assert how many fetches and saves ran.
package final class InMemoryDataSource: RepositoryDataSource, @unchecked Sendable {
    // @unchecked: every mutable property is in `state`.
    package typealias Cache = [String]
    package typealias Requirements = TestRequirements
    package typealias FetchResult = [String]
    package typealias FetchError = any Error

    package struct Calls: Equatable {
        package var fetches = 0
        package var saves = 0
        package var observes = 0
        package var isEmptyChecks = 0

        package init(fetches: Int = 0, saves: Int = 0, observes: Int = 0, isEmptyChecks: Int = 0) {
            self.fetches = fetches
            self.saves = saves
            self.observes = observes
            self.isEmptyChecks = isEmptyChecks
        }
    }

    private struct State {
        var caches: [String: [String]] = [:]
        var calls = Calls()
        var fetch: (TestRequirements) -> Single<FetchResponse<[String], any Error>> = { _ in .never() }
        var saveError: (any Error)?
        var observeError: (any Error)?
        var applyWrites: (@Sendable ([OutboxRecord], [String]?) -> [String]?)?
    }

    package let maxAgeOfCache: Period
    package let automaticallyRefresh: Bool
    package let retryPolicy: RetryPolicy?
    package let refreshInterval: RxTimeInterval?
    private let state = Locked(State())
    private let changes = PublishSubject<String>()

    package init(
        maxAgeOfCache: Period = Period(unit: 1, component: .hour),
        automaticallyRefresh: Bool = true,
        retryPolicy: RetryPolicy? = nil,
        refreshInterval: RxTimeInterval? = nil
    ) {
        self.maxAgeOfCache = maxAgeOfCache
        self.automaticallyRefresh = automaticallyRefresh
        self.retryPolicy = retryPolicy
        self.refreshInterval = refreshInterval
    }

    package var calls: Calls {
        state.value.calls
    }

    /// What the next fetches return.
    package func respond(with fetch: @escaping (TestRequirements) -> Single<FetchResponse<[String], any Error>>) {
        state.withLock { $0.fetch = fetch }
    }

    /// How pending outbox writes are shown on the cache (not at all until this is called).
    package func showPendingWrites(with apply: @escaping @Sendable ([OutboxRecord], [String]?) -> [String]?) {
        state.withLock { $0.applyWrites = apply }
    }

    package func failSaves(with error: (any Error)?) {
        state.withLock { $0.saveError = error }
    }

    package func failObservation(with error: (any Error)?) {
        state.withLock { $0.observeError = error }
    }

    package func cache(for requirements: TestRequirements) -> [String]? {
        state.value.caches[requirements.tag]
    }

    /// Writes the cache directly, as another part of the app would.
    package func write(_ cache: [String], for requirements: TestRequirements) {
        state.withLock { $0.caches[requirements.tag] = cache }
        changes.onNext(requirements.tag)
    }

    package func fetchFreshCache(requirements: TestRequirements) -> Single<FetchResponse<[String], any Error>> {
        let fetch = state.withLock { state in
            state.calls.fetches += 1
            return state.fetch
        }
        return fetch(requirements)
    }

    package func saveCache(_ cache: [String], requirements: TestRequirements) throws {
        let error = state.withLock { state -> (any Error)? in
            state.calls.saves += 1
            if let error = state.saveError { return error }
            state.caches[requirements.tag] = cache
            return nil
        }
        if let error { throw error }
        changes.onNext(requirements.tag)
    }

    package func observeCache(requirements: TestRequirements) -> Observable<[String]> {
        let tag = requirements.tag
        let error = state.withLock { state -> (any Error)? in
            state.calls.observes += 1
            return state.observeError
        }
        if let error { return .error(error) }
        let state = self.state
        let changes = self.changes
        return Observable.create { observer in
            observer.onNext(state.value.caches[tag] ?? [])
            return changes.filter { $0 == tag }.subscribe(onNext: { _ in
                observer.onNext(state.value.caches[tag] ?? [])
            })
        }
    }

    package func isCacheEmpty(_ cache: [String], requirements: TestRequirements) -> Bool {
        state.withLock { $0.calls.isEmptyChecks += 1 }
        return cache.isEmpty
    }

    package func applyPendingWrites(
        _ writes: [OutboxRecord],
        to cache: [String]?,
        requirements: TestRequirements
    ) -> [String]? {
        guard let apply = state.withLock({ $0.applyWrites }) else { return cache }
        return apply(writes, cache)
    }
}
