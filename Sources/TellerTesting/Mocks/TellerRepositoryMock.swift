import Foundation
import Teller
import TellerRx

/// Teller-iOS's older name for ``TellerRepositoryMock``.
public typealias RepositoryMock<DataSource: RepositoryDataSource> = TellerRepositoryMock<DataSource>

/// A stand-in for `TellerRepository` in unit tests of code that uses a repository
/// (view models, presenters). Inject it where the code expects a `TellerRepository`.
///
/// The mock never runs the Teller engine and never calls its data source. Every member records
/// its calls (`…Called`, `…CallsCount`, and `…Invocations` for members with arguments) and
/// answers with its `…Closure` when set. Unset closures give neutral answers, never a crash:
///
/// | member | answer when its closure is `nil` |
/// | --- | --- |
/// | ``observe()`` | `Observable.empty()`: no state, completes at once (a blocking `first()` returns `nil` instead of hanging) |
/// | ``refresh(force:)`` | `.just(.skipped(reason: .cancelled))` |
/// | ``refreshIfNoCache()`` | `.just(.skipped(reason: .cancelled))` |
/// | ``requirements`` | the getter returns the last value set |
///
/// `.skipped(reason: .cancelled)` is the one result the real repository can give to any call,
/// forced or not, with or without a cache, so the default never shows the code under test an
/// impossible combination. Unlike the real repository, the mock does not throw when
/// ``requirements`` is `nil`; make ``refreshClosure`` throw to test that path.
///
/// ```swift
/// let repository = TellerRepositoryMock(dataSource: ReposDataSource())
/// repository.observeClosure = { .just(CacheState.testing.noCache(requirements: requirements)) }
/// let viewModel = ReposViewModel(reposRepository: repository)
/// viewModel.setReposToObserve(username: "octocat")
/// XCTAssertEqual(repository.requirementsInvocations.last??.username, "octocat")
/// ```
///
/// Threads: every member may be used from any thread; the records are guarded by a lock, and
/// closures run on the calling thread, outside the lock.
public final class TellerRepositoryMock<DataSource: RepositoryDataSource>: TellerRepository<DataSource>,
    @unchecked Sendable
{
    // @unchecked: all mutable state is in `record`, behind its lock.
    private struct Record {
        var mockCalled = false
        var requirements: DataSource.Requirements?
        var requirementsInvocations: [DataSource.Requirements?] = []
        var requirementsClosure: (@Sendable (DataSource.Requirements?) -> Void)?
        var observeInvocations: [DataSource.Requirements?] = []
        var observeClosure: (@Sendable () -> Observable<CacheState<Cache>>)?
        var refreshInvocations: [Bool] = []
        var refreshClosure: (@Sendable (Bool) throws -> Single<RefreshResult>)?
        var refreshIfNoCacheInvocations: [DataSource.Requirements?] = []
        var refreshIfNoCacheClosure: (@Sendable () throws -> Single<RefreshResult>)?
    }

    private let record = LockedState(Record())

    /// Creates a mock around `dataSource`, which it keeps but never calls.
    ///
    /// The mock runs in a private in-memory `Teller` environment, so creating it reads
    /// and writes no metadata.
    ///
    /// - Parameter dataSource: Any data source of the right type; it is only stored.
    public init(dataSource: DataSource) {
        super.init(dataSource: dataSource, teller: inertTeller)
    }

    /// Creates a mock around `dataSource` in `teller`'s environment (only `TellerRepository.teller`
    /// reports it; the mock never uses it).
    ///
    /// - Parameters:
    ///   - dataSource: Any data source of the right type; it is only stored.
    ///   - teller: The environment the property `TellerRepository.teller` returns.
    public override init(dataSource: DataSource, teller: Teller) {
        super.init(dataSource: dataSource, teller: teller)
    }

    /// Whether any member of the mock was used (a requirements get or set, or a method call).
    public var mockCalled: Bool {
        record.withLock { $0.mockCalled }
    }

    // MARK: requirements

    /// The requirements last set, or `nil`. Setting records the value in
    /// ``requirementsInvocations`` and then calls ``requirementsClosure`` with it; the real
    /// engine is not started.
    public override var requirements: DataSource.Requirements? {
        get {
            record.withLock { record in
                record.mockCalled = true
                return record.requirements
            }
        }
        set {
            let closure = record.withLock { record in
                record.mockCalled = true
                record.requirements = newValue
                record.requirementsInvocations.append(newValue)
                return record.requirementsClosure
            }
            closure?(newValue)
        }
    }

    /// Whether ``requirements`` was set at least once.
    public var requirementsCalled: Bool {
        requirementsCallsCount > 0
    }

    /// How many times ``requirements`` was set.
    public var requirementsCallsCount: Int {
        record.withLock { $0.requirementsInvocations.count }
    }

    /// Every value ``requirements`` was set to, oldest first (`nil` when it was set to `nil`).
    public var requirementsInvocations: [DataSource.Requirements?] {
        record.withLock { $0.requirementsInvocations }
    }

    /// Called with the new value each time ``requirements`` is set, on the setting thread, after
    /// the value is recorded. `nil` (the default) does nothing more.
    public var requirementsClosure: (@Sendable (DataSource.Requirements?) -> Void)? {
        get { record.withLock { $0.requirementsClosure } }
        set { record.withLock { $0.requirementsClosure = newValue } }
    }

    // MARK: observe()

    /// Records the call and returns ``observeClosure``'s observable, or `Observable.empty()`
    /// when it is `nil`.
    ///
    /// - Returns: What ``observeClosure`` returns; states are delivered however that observable
    ///   delivers them (the mock adds no scheduler hop).
    public override func observe() -> Observable<CacheState<Cache>> {
        let closure = record.withLock { record in
            record.mockCalled = true
            record.observeInvocations.append(record.requirements)
            return record.observeClosure
        }
        return closure?() ?? .empty()
    }

    /// ``observe()``, as the mock gives it: the states of ``observeClosure``, and never a
    /// sign-out, so a `RepositoryModel` over the mock shows the scripted states.
    ///
    /// - Returns: ``observe()``'s states.
    public override func observeSession() -> Observable<CacheState<Cache>?> {
        observe().map { $0 }
    }

    /// Whether ``observe()`` was called.
    public var observeCalled: Bool {
        observeCallsCount > 0
    }

    /// How many times ``observe()`` was called.
    public var observeCallsCount: Int {
        record.withLock { $0.observeInvocations.count }
    }

    /// The ``requirements`` the mock held at each ``observe()`` call, oldest first (the call takes
    /// no arguments; this tells which data the code under test asked about).
    public var observeInvocations: [DataSource.Requirements?] {
        record.withLock { $0.observeInvocations }
    }

    /// What ``observe()`` returns, called on the thread that calls `observe()`. When `nil`,
    /// `observe()` returns an observable that completes at once without a state.
    public var observeClosure: (@Sendable () -> Observable<CacheState<Cache>>)? {
        get { record.withLock { $0.observeClosure } }
        set { record.withLock { $0.observeClosure = newValue } }
    }

    // MARK: refresh(force:)

    /// Records `force` and returns ``refreshClosure``'s answer, or
    /// `.just(.skipped(reason: .cancelled))` when it is `nil`.
    ///
    /// - Parameter force: Recorded in ``refreshInvocations``.
    /// - Returns: What ``refreshClosure`` returns.
    /// - Throws: Whatever ``refreshClosure`` throws; never throws by itself.
    public override func refresh(force: Bool) throws -> Single<RefreshResult> {
        let closure = record.withLock { record in
            record.mockCalled = true
            record.refreshInvocations.append(force)
            return record.refreshClosure
        }
        return try closure?(force) ?? .just(.skipped(reason: .cancelled))
    }

    /// Whether ``refresh(force:)`` was called.
    public var refreshCalled: Bool {
        refreshCallsCount > 0
    }

    /// How many times ``refresh(force:)`` was called.
    public var refreshCallsCount: Int {
        record.withLock { $0.refreshInvocations.count }
    }

    /// The `force` argument of every ``refresh(force:)`` call, oldest first.
    public var refreshInvocations: [Bool] {
        record.withLock { $0.refreshInvocations }
    }

    /// What ``refresh(force:)`` returns or throws, called with `force` on the calling thread.
    /// `RefreshResult.testing` has ready-made answers.
    public var refreshClosure: (@Sendable (Bool) throws -> Single<RefreshResult>)? {
        get { record.withLock { $0.refreshClosure } }
        set { record.withLock { $0.refreshClosure = newValue } }
    }

    // MARK: refreshIfNoCache()

    /// Records the call and returns ``refreshIfNoCacheClosure``'s answer, or
    /// `.just(.skipped(reason: .cancelled))` when it is `nil`.
    ///
    /// - Returns: What ``refreshIfNoCacheClosure`` returns.
    /// - Throws: Whatever ``refreshIfNoCacheClosure`` throws; never throws by itself.
    public override func refreshIfNoCache() throws -> Single<RefreshResult> {
        let closure = record.withLock { record in
            record.mockCalled = true
            record.refreshIfNoCacheInvocations.append(record.requirements)
            return record.refreshIfNoCacheClosure
        }
        return try closure?() ?? .just(.skipped(reason: .cancelled))
    }

    /// Whether ``refreshIfNoCache()`` was called.
    public var refreshIfNoCacheCalled: Bool {
        refreshIfNoCacheCallsCount > 0
    }

    /// How many times ``refreshIfNoCache()`` was called.
    public var refreshIfNoCacheCallsCount: Int {
        record.withLock { $0.refreshIfNoCacheInvocations.count }
    }

    /// The ``requirements`` the mock held at each ``refreshIfNoCache()`` call, oldest first (the call takes
    /// no arguments; this tells which data the code under test asked about).
    public var refreshIfNoCacheInvocations: [DataSource.Requirements?] {
        record.withLock { $0.refreshIfNoCacheInvocations }
    }

    /// What ``refreshIfNoCache()`` returns or throws, called on the calling thread.
    public var refreshIfNoCacheClosure: (@Sendable () throws -> Single<RefreshResult>)? {
        get { record.withLock { $0.refreshIfNoCacheClosure } }
        set { record.withLock { $0.refreshIfNoCacheClosure = newValue } }
    }
}
