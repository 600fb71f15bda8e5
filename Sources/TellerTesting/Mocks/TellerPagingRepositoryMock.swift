import Foundation
import Teller
import TellerRx

/// A stand-in for `TellerPagingRepository` in unit tests of code that shows a paged list (view
/// models, presenters). Inject it where the code expects a `TellerPagingRepository`.
///
/// The mock never runs the Teller engine and never calls its data source. Every member records
/// its uses (`…Called`, `…CallsCount`, and `…Invocations` for the properties and for members
/// with arguments) and answers with its `…Closure` when set. Unset closures give neutral
/// answers, never a crash:
///
/// | member | answer when its closure is `nil` |
/// | --- | --- |
/// | ``observe()`` | `Observable.empty()`: no state, completes at once |
/// | ``refresh(force:)`` | `.just(.skipped(reason: .cancelled))` |
/// | ``refreshIfNoCache()`` | `.just(.skipped(reason: .cancelled))` |
/// | ``goToNextPage()`` | records the call, does nothing more |
/// | ``requirements`` | the getter returns the last value set |
/// | ``pagingRequirements`` | the last value the test set, at first `firstPageRequirements` |
/// | ``areMorePagesAvailable`` | the last value the test set, at first `false` |
///
/// The properties record *sets*, as ``TellerRepositoryMock`` does for `requirements`: their
/// `…Invocations` list every value assigned, oldest first, and `…CallsCount` counts the
/// assignments. ``requirements`` is set by the code under test; ``pagingRequirements`` and
/// ``areMorePagesAvailable`` are read-only on the real repository, so the test assigns them to
/// script what the code under test reads, and reads are not recorded (they do count in
/// ``mockCalled``). To check that your code reads one, count the calls of its `…Closure`, which
/// answers the reads when set.
///
/// `.skipped(reason: .cancelled)` is the one result the real repository can give to any refresh
/// call, so the default never shows the code under test an impossible combination. Build the
/// states for ``observeClosure`` with `CacheState.testing.pagedCache(requirements:lastTimeFetched:more:)`.
///
/// ```swift
/// let repository = TellerPagingRepositoryMock(
///     dataSource: ReposDataSource(),
///     firstPageRequirements: ReposPagingRequirements(pageNumber: 1)
/// )
/// repository.observeClosure = { .just(givenState) }
/// let viewModel = ReposViewModel(reposRepository: repository)
/// viewModel.scrolledToTheEnd()
/// XCTAssertEqual(repository.goToNextPageCallsCount, 1)
/// ```
///
/// Threads: every member may be used from any thread; the records are guarded by a lock, and
/// closures run on the calling thread, outside the lock.
public final class TellerPagingRepositoryMock<DataSource: PagingRepositoryDataSource>:
    TellerPagingRepository<DataSource>, @unchecked Sendable
{
    // @unchecked: all mutable state is in `record`, behind its lock.
    private struct Record {
        var mockCalled = false
        var requirements: DataSource.Requirements?
        var requirementsInvocations: [DataSource.Requirements?] = []
        var requirementsClosure: (@Sendable (DataSource.Requirements?) -> Void)?
        var pagingRequirements: DataSource.PagingRequirements
        var pagingRequirementsInvocations: [DataSource.PagingRequirements] = []
        var pagingRequirementsClosure: (@Sendable () -> DataSource.PagingRequirements)?
        var areMorePagesAvailable = false
        var areMorePagesAvailableInvocations: [Bool] = []
        var areMorePagesAvailableClosure: (@Sendable () -> Bool)?
        var observeInvocations: [DataSource.Requirements?] = []
        var observeClosure: (@Sendable () -> Observable<CacheState<Cache>>)?
        var refreshInvocations: [Bool] = []
        var refreshClosure: (@Sendable (Bool) throws -> Single<RefreshResult>)?
        var refreshIfNoCacheInvocations: [DataSource.Requirements?] = []
        var refreshIfNoCacheClosure: (@Sendable () throws -> Single<RefreshResult>)?
        var goToNextPageInvocations: [DataSource.Requirements?] = []
        var goToNextPageClosure: (@Sendable () -> Void)?
    }

    private let record: LockedState<Record>

    /// Creates a mock around `dataSource`, which it keeps but never calls.
    ///
    /// The mock runs in a private in-memory `Teller` environment, so creating it reads and writes
    /// no metadata.
    ///
    /// - Parameters:
    ///   - dataSource: Any data source of the right type; it is only stored.
    ///   - firstPageRequirements: What ``pagingRequirements`` returns until the test sets it.
    public init(dataSource: DataSource, firstPageRequirements: DataSource.PagingRequirements) {
        record = LockedState(Record(pagingRequirements: firstPageRequirements))
        super.init(dataSource: dataSource, firstPageRequirements: firstPageRequirements, teller: inertTeller)
    }

    /// Creates a mock around `dataSource` in `teller`'s environment (only
    /// `TellerPagingRepository.teller` reports it; the mock never uses it).
    ///
    /// - Parameters:
    ///   - dataSource: Any data source of the right type; it is only stored.
    ///   - firstPageRequirements: What ``pagingRequirements`` returns until the test sets it.
    ///   - teller: The environment the property `TellerPagingRepository.teller` returns.
    public override init(
        dataSource: DataSource,
        firstPageRequirements: DataSource.PagingRequirements,
        teller: Teller
    ) {
        record = LockedState(Record(pagingRequirements: firstPageRequirements))
        super.init(dataSource: dataSource, firstPageRequirements: firstPageRequirements, teller: teller)
    }

    /// Whether any member of the mock was used: a get or set of a property, or a method call.
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

    // MARK: pagingRequirements

    /// The paging requirements of the last page shown, as the code under test reads them: what
    /// ``pagingRequirementsClosure`` returns, or when it is `nil` the value last set here (at
    /// first `firstPageRequirements`).
    ///
    /// The real property is read-only: set it on the mock to script the answer. Each value set
    /// is recorded in ``pagingRequirementsInvocations``, as ``TellerRepositoryMock`` records
    /// `requirements`; reads are not recorded there.
    public override var pagingRequirements: DataSource.PagingRequirements {
        get {
            let (stored, closure) = record.withLock { record in
                record.mockCalled = true
                return (record.pagingRequirements, record.pagingRequirementsClosure)
            }
            return closure?() ?? stored
        }
        set {
            record.withLock { record in
                record.mockCalled = true
                record.pagingRequirements = newValue
                record.pagingRequirementsInvocations.append(newValue)
            }
        }
    }

    /// Whether ``pagingRequirements`` was set at least once.
    public var pagingRequirementsCalled: Bool {
        pagingRequirementsCallsCount > 0
    }

    /// How many times ``pagingRequirements`` was set.
    public var pagingRequirementsCallsCount: Int {
        record.withLock { $0.pagingRequirementsInvocations.count }
    }

    /// Every value ``pagingRequirements`` was set to, oldest first.
    public var pagingRequirementsInvocations: [DataSource.PagingRequirements] {
        record.withLock { $0.pagingRequirementsInvocations }
    }

    /// What ``pagingRequirements`` returns, called on the reading thread each time it is read.
    /// When `nil`, the getter returns the value last set on the mock.
    public var pagingRequirementsClosure: (@Sendable () -> DataSource.PagingRequirements)? {
        get { record.withLock { $0.pagingRequirementsClosure } }
        set { record.withLock { $0.pagingRequirementsClosure = newValue } }
    }

    // MARK: areMorePagesAvailable

    /// Whether more pages can be loaded after the last one shown, as the code under test reads
    /// it: what ``areMorePagesAvailableClosure`` returns, or when it is `nil` the value last set
    /// here (at first `false`).
    ///
    /// Set it on the mock to script the answer. Each value set is recorded in
    /// ``areMorePagesAvailableInvocations``; reads are not recorded there.
    public override var areMorePagesAvailable: Bool {
        get {
            let (stored, closure) = record.withLock { record in
                record.mockCalled = true
                return (record.areMorePagesAvailable, record.areMorePagesAvailableClosure)
            }
            return closure?() ?? stored
        }
        set {
            record.withLock { record in
                record.mockCalled = true
                record.areMorePagesAvailable = newValue
                record.areMorePagesAvailableInvocations.append(newValue)
            }
        }
    }

    /// Whether ``areMorePagesAvailable`` was set at least once.
    public var areMorePagesAvailableCalled: Bool {
        areMorePagesAvailableCallsCount > 0
    }

    /// How many times ``areMorePagesAvailable`` was set.
    public var areMorePagesAvailableCallsCount: Int {
        record.withLock { $0.areMorePagesAvailableInvocations.count }
    }

    /// Every value ``areMorePagesAvailable`` was set to, oldest first.
    public var areMorePagesAvailableInvocations: [Bool] {
        record.withLock { $0.areMorePagesAvailableInvocations }
    }

    /// What ``areMorePagesAvailable`` returns, called on the reading thread each time it is read.
    /// When `nil`, the getter returns the value last set on the mock.
    public var areMorePagesAvailableClosure: (@Sendable () -> Bool)? {
        get { record.withLock { $0.areMorePagesAvailableClosure } }
        set { record.withLock { $0.areMorePagesAvailableClosure = newValue } }
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

    // MARK: goToNextPage()

    /// Records the call and runs ``goToNextPageClosure`` if set; no page is fetched.
    public override func goToNextPage() {
        let closure = record.withLock { record in
            record.mockCalled = true
            record.goToNextPageInvocations.append(record.requirements)
            return record.goToNextPageClosure
        }
        closure?()
    }

    /// Whether ``goToNextPage()`` was called.
    public var goToNextPageCalled: Bool {
        goToNextPageCallsCount > 0
    }

    /// How many times ``goToNextPage()`` was called.
    public var goToNextPageCallsCount: Int {
        record.withLock { $0.goToNextPageInvocations.count }
    }

    /// The ``requirements`` the mock held at each ``goToNextPage()`` call, oldest first (the call takes
    /// no arguments; this tells which data the code under test asked about).
    public var goToNextPageInvocations: [DataSource.Requirements?] {
        record.withLock { $0.goToNextPageInvocations }
    }

    /// Runs on each ``goToNextPage()`` call, on the calling thread, after the call is recorded:
    /// for example, push a "loading next page" state to the subject your ``observeClosure``
    /// returns.
    public var goToNextPageClosure: (@Sendable () -> Void)? {
        get { record.withLock { $0.goToNextPageClosure } }
        set { record.withLock { $0.goToNextPageClosure = newValue } }
    }
}
