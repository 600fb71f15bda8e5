import Foundation
import Teller
import TellerRx

/// What ``TellerRepositoryMock`` and ``TellerPagingRepositoryMock`` record of the members they
/// share (`requirements`, `observe()`, `refresh(force:)`, `refreshIfNoCache()`), and how they
/// answer them. You reach it through the mocks' `…Called`, `…CallsCount`, `…Invocations` and
/// `…Closure` members, which ``RecordingRepositoryMock`` provides; it has no public members of
/// its own.
///
/// Threads: any; each member's record has its own lock, and closures run on the calling
/// thread, outside it.
public final class RepositoryMockRecords<Requirements, Cache: Sendable>: @unchecked Sendable {
    // @unchecked: every mutable value is inside a `CallRecord`, behind its lock.
    let use = MockUse()
    let requirements: CallRecord<Requirements?, @Sendable (Requirements?) -> Void>
    let observe: CallRecord<Requirements?, @Sendable () -> Observable<CacheState<Cache>>>
    let refresh: CallRecord<Bool, @Sendable (Bool) throws -> Single<RefreshResult>>
    let refreshIfNoCache: CallRecord<Requirements?, @Sendable () throws -> Single<RefreshResult>>

    init() {
        requirements = CallRecord(use)
        observe = CallRecord(use)
        refresh = CallRecord(use)
        refreshIfNoCache = CallRecord(use)
    }

    /// The requirements last set, or `nil`, as the mock's getter returns them: the read marks
    /// the mock used but is not recorded as a call.
    var currentRequirements: Requirements? {
        use.mark()
        return heldRequirements
    }

    /// The requirements the mock holds now, recorded by the argument-less calls.
    var heldRequirements: Requirements? {
        requirements.invocations.last ?? nil
    }

    func setRequirements(_ newValue: Requirements?) {
        requirements.call(newValue)?(newValue)
    }

    func observeStates() -> Observable<CacheState<Cache>> {
        observe.call(heldRequirements)?() ?? .empty()
    }

    /// Records the call, then answers as the real repositories do without requirements: it
    /// throws `TellerError.objectPropertiesNotSet(["requirements"])` and runs no closure.
    func refresh(force: Bool) throws -> Single<RefreshResult> {
        let closure = refresh.call(force)
        try requireRequirements()
        return try closure?(force) ?? .just(.skipped(reason: .cancelled))
    }

    /// As ``refresh(force:)``, for `refreshIfNoCache()`.
    func refreshIfNoCacheResult() throws -> Single<RefreshResult> {
        let closure = refreshIfNoCache.call(heldRequirements)
        try requireRequirements()
        return try closure?() ?? .just(.skipped(reason: .cancelled))
    }

    private func requireRequirements() throws {
        guard heldRequirements != nil else { throw TellerError.objectPropertiesNotSet(["requirements"]) }
    }
}
