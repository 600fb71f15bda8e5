import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTesting

/// A Teller environment on virtual time: one `TestScheduler` is the UI and the background
/// scheduler and the clock, metadata lives in memory, and log events are recorded. Nothing
/// waits for real time.
package struct VirtualTeller {
    package let scheduler = TestScheduler(initialClock: 0)
    package let store = InMemoryFetchMetadataStore()
    package let log = Locked<[String]>([])
    package let teller: Teller

    /// Posts this environment's app-lifecycle notifications; nothing else observes it.
    package let notifications = NotificationCenter()

    package init(fetchTimeout: RxTimeInterval? = .seconds(60), retryPolicy: RetryPolicy = .never) {
        let scheduler = self.scheduler
        let log = self.log
        teller = Teller(
            metadataStore: store,
            clock: { scheduler.now },
            uiScheduler: scheduler,
            backgroundScheduler: scheduler,
            fetchTimeout: fetchTimeout,
            retryPolicy: retryPolicy,
            appLifecycleNotifications: notifications,
            logger: { event in log.withLock { $0.append(event.description) } }
        )
    }

    /// The virtual time `ticks` seconds after the epoch.
    package func date(_ ticks: Int) -> Date {
        Date(timeIntervalSince1970: Double(ticks))
    }

    /// Records `tag` as fetched at virtual time `ticks`.
    package func markFetched(_ requirements: TestRequirements, at ticks: Int) {
        store.setMetadata(FetchMetadata(lastFetched: date(ticks)), forTag: requirements.tag)
    }

    /// A fetch that succeeds with `cache` after `ticks`.
    package func fetch(_ cache: [String], after ticks: Int) -> Single<FetchResponse<[String], any Error>> {
        scheduler.createColdObservable([
            .next(ticks, FetchResponse<[String], any Error>.success(cache)), .completed(ticks),
        ])
        .asSingle()
    }

    /// A fetch that returns `.failure(error)` after `ticks`.
    package func failingFetch(_ error: any Error, after ticks: Int) -> Single<FetchResponse<[String], any Error>> {
        scheduler.createColdObservable([
            .next(ticks, FetchResponse<[String], any Error>.failure(error)), .completed(ticks),
        ])
        .asSingle()
    }
}

/// A compact, comparable summary of a state, so expected sequences read like a table.
///
/// The text names each fact once, in the finest terms: a first fetch is `firstFetch` and its
/// error `firstFetchError …`, while `refreshing` and `refreshError …` are printed only for a
/// refresh of an existing cache. `CacheState.isRefreshing` and `refreshError` have Teller-iOS's
/// meanings (they cover the first fetch too), but this format predates that and the timeline
/// tests across the suites are written in it, so it stays as it was: keep it that way.
package struct StateSummary: Equatable, CustomStringConvertible {
    package let text: String

    package init(_ text: String) {
        self.text = text
    }

    package init(_ state: CacheState<[String]>) {
        var parts: [String]
        switch state.state {
        case .noCache:
            parts = ["noCache"]
        case .cache(let cache, let age):
            let content =
                cache.map { "\($0)" }
                ?? (state.isLoadingCache ? "unread" : (state.cacheReadError != nil ? "unreadable" : "empty"))
            parts = ["cache \(content) age \(Int(age.timeIntervalSince1970))"]
        }
        if state.isFirstFetch { parts.append("firstFetch") }
        // `isRefreshing` is also true during the first fetch, which `firstFetch` already says.
        if state.isRefreshing && !state.isFirstFetch { parts.append("refreshing") }
        if state.justFinishedFirstFetch { parts.append("justFinishedFirstFetch") }
        if state.justFinishedSuccessfulRefresh { parts.append("justFinishedRefresh") }
        if let error = state.errorDuringFirstFetch { parts.append("firstFetchError \(error)") }
        // `refreshError` also carries the first fetch's error, which `firstFetchError` already says.
        if let error = state.refreshError, state.errorDuringFirstFetch == nil { parts.append("refreshError \(error)") }
        if let error = state.cacheReadError { parts.append("cacheReadError \(error)") }
        if let retry = state.pendingRetry {
            let at = Int(retry.nextAttemptAt.timeIntervalSince1970)
            parts.append("retry at \(at) after \(retry.failedAttempts) failed: \(retry.lastError)")
        }
        if !state.pendingWrites.isEmpty { parts.append("\(state.pendingWrites.count) pending") }
        text = parts.joined(separator: ", ")
    }

    package var description: String {
        text
    }
}

extension TestableObserver where Element == CacheState<[String]> {
    /// The recorded states as `time: summary` lines.
    package var timeline: [String] {
        events.compactMap { recorded in
            switch recorded.value {
            case .next(let state): "\(recorded.time): \(StateSummary(state))"
            case .error(let error): "\(recorded.time): error \(error)"
            case .completed: "\(recorded.time): completed"
            }
        }
    }
}
