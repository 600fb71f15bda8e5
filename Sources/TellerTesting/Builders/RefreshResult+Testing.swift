import Dispatch
import Teller
import TellerRx

extension RefreshResult {
    /// Ready-made answers for ``TellerRepositoryMock/refreshClosure`` and
    /// ``TellerRepositoryMock/refreshIfNoCacheClosure``:
    ///
    /// ```swift
    /// repository.refreshClosure = { _ in RefreshResult.testing.failed(URLError(.notConnectedToInternet)) }
    /// repository.refreshIfNoCacheClosure = { RefreshResult.testing.successful(after: .seconds(2), scheduler: scheduler) }
    /// ```
    public static var testing: RefreshResultTesting {
        RefreshResultTesting()
    }
}

/// The `RefreshResult.testing` helpers: each returns a `Single` like the one
/// `TellerRepository.refresh(force:)` returns. Without a scheduler the `Single` succeeds at once,
/// on the subscribing thread; with one, it succeeds `delay` later on that scheduler (use a
/// `TestScheduler` to test what your code shows while a refresh runs).
public struct RefreshResultTesting: Sendable {
    init() {}

    /// A refresh that fetched and saved new data.
    ///
    /// - Parameters:
    ///   - delay: How long the refresh takes; ignored without `scheduler`.
    ///   - scheduler: Where the result is delivered after `delay`; `nil` answers at once.
    /// - Returns: A `Single` with `RefreshResult.successful`.
    public func successful(
        after delay: RxTimeInterval = .seconds(0),
        scheduler: (any SchedulerType)? = nil
    ) -> Single<RefreshResult> {
        result(.successful, after: delay, scheduler: scheduler)
    }

    /// A refresh whose fetch or save failed with `error`. The `Single` itself succeeds, as the
    /// real one does: failures are a result, not an error event.
    ///
    /// - Parameters:
    ///   - error: The error the refresh reports.
    ///   - delay: How long the refresh takes; ignored without `scheduler`.
    ///   - scheduler: Where the result is delivered after `delay`; `nil` answers at once.
    /// - Returns: A `Single` with `RefreshResult.failedError(error:)`.
    public func failed(
        _ error: any Error,
        after delay: RxTimeInterval = .seconds(0),
        scheduler: (any SchedulerType)? = nil
    ) -> Single<RefreshResult> {
        result(.failedError(error: error), after: delay, scheduler: scheduler)
    }

    /// A refresh that did not fetch.
    ///
    /// - Parameters:
    ///   - reason: Why; `.dataNotTooOld` (the cache is fresh) unless given.
    ///   - delay: How long until the answer; ignored without `scheduler`.
    ///   - scheduler: Where the result is delivered after `delay`; `nil` answers at once.
    /// - Returns: A `Single` with `RefreshResult.skipped(reason:)`.
    public func skipped(
        _ reason: RefreshResult.SkippedReason = .dataNotTooOld,
        after delay: RxTimeInterval = .seconds(0),
        scheduler: (any SchedulerType)? = nil
    ) -> Single<RefreshResult> {
        result(.skipped(reason: reason), after: delay, scheduler: scheduler)
    }

    /// A refresh that never finishes, to test what your code shows while one runs.
    ///
    /// - Returns: A `Single` that never succeeds.
    public func running() -> Single<RefreshResult> {
        .never()
    }

    private func result(
        _ result: RefreshResult,
        after delay: RxTimeInterval,
        scheduler: (any SchedulerType)?
    ) -> Single<RefreshResult> {
        guard let scheduler else { return .just(result) }
        return Observable.just(result).delay(delay, scheduler: scheduler).asSingle()
    }
}
