import Foundation
import Teller
import TellerRx

/// The recording members ``TellerRepositoryMock`` and ``TellerPagingRepositoryMock`` share:
/// `mockCalled`, and `…Called`, `…CallsCount`, `…Invocations` and `…Closure` for
/// `requirements`, `observe()`, `refresh(force:)` and `refreshIfNoCache()`. Written once here,
/// so both mocks behave alike; you use the members, not the protocol.
///
/// Threads: every member may be used from any thread; the records are guarded by locks, and
/// closures run on the calling thread, outside them.
public protocol RecordingRepositoryMock: AnyObject {
    /// The requirements type of the mocked repository.
    associatedtype MockedRequirements
    /// The cache type of the states the mocked repository emits.
    associatedtype Cache: Sendable

    /// Where the shared members keep their records.
    var mockRecords: RepositoryMockRecords<MockedRequirements, Cache> { get }
}

extension RecordingRepositoryMock {
    /// Whether any member of the mock was used: a get or set of a property, or a method call.
    public var mockCalled: Bool {
        mockRecords.use.happened
    }

    // MARK: requirements

    /// Whether `requirements` was set at least once.
    public var requirementsCalled: Bool { mockRecords.requirements.called }

    /// How many times `requirements` was set.
    public var requirementsCallsCount: Int { mockRecords.requirements.callsCount }

    /// Every value `requirements` was set to, oldest first (`nil` when it was set to `nil`).
    public var requirementsInvocations: [MockedRequirements?] { mockRecords.requirements.invocations }

    /// Called with the new value each time `requirements` is set, on the setting thread, after
    /// the value is recorded. `nil` (the default) does nothing more.
    public var requirementsClosure: (@Sendable (MockedRequirements?) -> Void)? {
        get { mockRecords.requirements.closure }
        set { mockRecords.requirements.closure = newValue }
    }

    // MARK: observe()

    /// Whether `observe()` was called.
    public var observeCalled: Bool { mockRecords.observe.called }

    /// How many times `observe()` was called.
    public var observeCallsCount: Int { mockRecords.observe.callsCount }

    /// The `requirements` the mock held at each `observe()` call, oldest first (the call takes no
    /// arguments; this tells which data the code under test asked about).
    public var observeInvocations: [MockedRequirements?] { mockRecords.observe.invocations }

    /// What `observe()` returns, called on the thread that calls `observe()`. When `nil`,
    /// `observe()` returns an observable that completes at once without a state.
    public var observeClosure: (@Sendable () -> Observable<CacheState<Cache>>)? {
        get { mockRecords.observe.closure }
        set { mockRecords.observe.closure = newValue }
    }

    // MARK: refresh(force:)

    /// Whether `refresh(force:)` was called, with or without requirements.
    public var refreshCalled: Bool { mockRecords.refresh.called }

    /// How many times `refresh(force:)` was called, with or without requirements.
    public var refreshCallsCount: Int { mockRecords.refresh.callsCount }

    /// The `force` argument of every `refresh(force:)` call, oldest first.
    public var refreshInvocations: [Bool] { mockRecords.refresh.invocations }

    /// What `refresh(force:)` returns or throws while requirements are set, called with `force`
    /// on the calling thread. `RefreshResult.testing` has ready-made answers.
    public var refreshClosure: (@Sendable (Bool) throws -> Single<RefreshResult>)? {
        get { mockRecords.refresh.closure }
        set { mockRecords.refresh.closure = newValue }
    }

    // MARK: refreshIfNoCache()

    /// Whether `refreshIfNoCache()` was called, with or without requirements.
    public var refreshIfNoCacheCalled: Bool { mockRecords.refreshIfNoCache.called }

    /// How many times `refreshIfNoCache()` was called, with or without requirements.
    public var refreshIfNoCacheCallsCount: Int { mockRecords.refreshIfNoCache.callsCount }

    /// The `requirements` the mock held at each `refreshIfNoCache()` call, oldest first (the call
    /// takes no arguments; this tells which data the code under test asked about).
    public var refreshIfNoCacheInvocations: [MockedRequirements?] { mockRecords.refreshIfNoCache.invocations }

    /// What `refreshIfNoCache()` returns or throws while requirements are set, called on the
    /// calling thread.
    public var refreshIfNoCacheClosure: (@Sendable () throws -> Single<RefreshResult>)? {
        get { mockRecords.refreshIfNoCache.closure }
        set { mockRecords.refreshIfNoCache.closure = newValue }
    }
}
