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
/// call, so the default never shows the code under test an impossible combination. While
/// ``requirements`` is `nil`, ``refresh(force:)`` and ``refreshIfNoCache()`` throw
/// `TellerError.objectPropertiesNotSet(["requirements"])`, as the real repository does. The
/// members shared with ``TellerRepositoryMock`` come from ``RecordingRepositoryMock``. Build the
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
    TellerPagingRepository<DataSource>, RecordingRepositoryMock, @unchecked Sendable
{
    // @unchecked: all mutable state is in the records, behind their locks.

    /// The requirements type of the mocked repository.
    public typealias MockedRequirements = DataSource.Requirements

    /// Where the recording members shared with ``TellerRepositoryMock`` keep their records.
    public let mockRecords: RepositoryMockRecords<DataSource.Requirements, Cache>
    private let scriptedPagingRequirements: ScriptedValue<DataSource.PagingRequirements>
    private let scriptedAreMorePages: ScriptedValue<Bool>
    private let goToNextPageRecord: CallRecord<DataSource.Requirements?, @Sendable () -> Void>

    /// Creates a mock around `dataSource`, which it keeps but never calls.
    ///
    /// The mock runs in a private in-memory `Teller` environment, so creating it reads and writes
    /// no metadata.
    ///
    /// - Parameters:
    ///   - dataSource: Any data source of the right type; it is only stored.
    ///   - firstPageRequirements: What ``pagingRequirements`` returns until the test sets it.
    public convenience init(dataSource: DataSource, firstPageRequirements: DataSource.PagingRequirements) {
        self.init(dataSource: dataSource, firstPageRequirements: firstPageRequirements, teller: inertTeller)
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
        let records = RepositoryMockRecords<DataSource.Requirements, Cache>()
        mockRecords = records
        scriptedPagingRequirements = ScriptedValue(firstPageRequirements, records.use)
        scriptedAreMorePages = ScriptedValue(false, records.use)
        goToNextPageRecord = CallRecord(records.use)
        super.init(dataSource: dataSource, firstPageRequirements: firstPageRequirements, teller: teller)
    }

    /// The requirements last set, or `nil`. Setting records the value in `requirementsInvocations`
    /// and then calls `requirementsClosure` with it; the real engine is not started.
    public override var requirements: DataSource.Requirements? {
        get { mockRecords.currentRequirements }
        set { mockRecords.setRequirements(newValue) }
    }

    /// Records the call and runs ``goToNextPageClosure`` if set; no page is fetched.
    public override func goToNextPage() {
        goToNextPageRecord.call(mockRecords.heldRequirements)?()
    }

    /// Records the call and returns `observeClosure`'s observable, or `Observable.empty()` when
    /// it is `nil`.
    ///
    /// - Returns: What `observeClosure` returns; states are delivered however that observable
    ///   delivers them (the mock adds no scheduler hop).
    public override func observe() -> Observable<CacheState<Cache>> {
        mockRecords.observeStates()
    }

    /// ``observe()``, as the mock gives it: the states of `observeClosure`, and never a
    /// sign-out, so a `RepositoryModel` over the mock shows the scripted states.
    ///
    /// - Returns: ``observe()``'s states.
    public override func observeSession() -> Observable<CacheState<Cache>?> {
        observe().map { $0 }
    }

    /// Records `force` and returns `refreshClosure`'s answer, or
    /// `.just(.skipped(reason: .cancelled))` when it is `nil`.
    ///
    /// - Parameter force: Recorded in `refreshInvocations`.
    /// - Returns: What `refreshClosure` returns.
    /// - Throws: `TellerError.objectPropertiesNotSet(["requirements"])` while ``requirements``
    ///   is `nil`, as the real repository does; otherwise whatever `refreshClosure` throws.
    public override func refresh(force: Bool) throws -> Single<RefreshResult> {
        try mockRecords.refresh(force: force)
    }

    /// Records the call and returns `refreshIfNoCacheClosure`'s answer, or
    /// `.just(.skipped(reason: .cancelled))` when it is `nil`.
    ///
    /// - Returns: What `refreshIfNoCacheClosure` returns.
    /// - Throws: `TellerError.objectPropertiesNotSet(["requirements"])` while ``requirements``
    ///   is `nil`, as the real repository does; otherwise whatever `refreshIfNoCacheClosure`
    ///   throws.
    public override func refreshIfNoCache() throws -> Single<RefreshResult> {
        try mockRecords.refreshIfNoCacheResult()
    }

    // MARK: pagingRequirements

    /// The paging requirements of the last page shown, as the code under test reads them: what
    /// ``pagingRequirementsClosure`` returns, or when it is `nil` the value last set here (at
    /// first `firstPageRequirements`).
    ///
    /// The real property is read-only: set it on the mock to script the answer. Each value set
    /// is recorded in ``pagingRequirementsInvocations``, as `requirements` is; reads are not
    /// recorded there.
    public override var pagingRequirements: DataSource.PagingRequirements {
        get { scriptedPagingRequirements.value }
        set { scriptedPagingRequirements.value = newValue }
    }

    /// Whether ``pagingRequirements`` was set at least once.
    public var pagingRequirementsCalled: Bool { scriptedPagingRequirements.record.called }

    /// How many times ``pagingRequirements`` was set.
    public var pagingRequirementsCallsCount: Int { scriptedPagingRequirements.record.callsCount }

    /// Every value ``pagingRequirements`` was set to, oldest first.
    public var pagingRequirementsInvocations: [DataSource.PagingRequirements] {
        scriptedPagingRequirements.record.invocations
    }

    /// What ``pagingRequirements`` returns, called on the reading thread each time it is read.
    /// When `nil`, the getter returns the value last set on the mock.
    public var pagingRequirementsClosure: (@Sendable () -> DataSource.PagingRequirements)? {
        get { scriptedPagingRequirements.record.closure }
        set { scriptedPagingRequirements.record.closure = newValue }
    }

    // MARK: areMorePagesAvailable

    /// Whether more pages can be loaded after the last one shown, as the code under test reads
    /// it: what ``areMorePagesAvailableClosure`` returns, or when it is `nil` the value last set
    /// here (at first `false`).
    ///
    /// Set it on the mock to script the answer. Each value set is recorded in
    /// ``areMorePagesAvailableInvocations``; reads are not recorded there.
    public override var areMorePagesAvailable: Bool {
        get { scriptedAreMorePages.value }
        set { scriptedAreMorePages.value = newValue }
    }

    /// Whether ``areMorePagesAvailable`` was set at least once.
    public var areMorePagesAvailableCalled: Bool { scriptedAreMorePages.record.called }

    /// How many times ``areMorePagesAvailable`` was set.
    public var areMorePagesAvailableCallsCount: Int { scriptedAreMorePages.record.callsCount }

    /// Every value ``areMorePagesAvailable`` was set to, oldest first.
    public var areMorePagesAvailableInvocations: [Bool] { scriptedAreMorePages.record.invocations }

    /// What ``areMorePagesAvailable`` returns, called on the reading thread each time it is read.
    /// When `nil`, the getter returns the value last set on the mock.
    public var areMorePagesAvailableClosure: (@Sendable () -> Bool)? {
        get { scriptedAreMorePages.record.closure }
        set { scriptedAreMorePages.record.closure = newValue }
    }

    // MARK: goToNextPage()

    /// Whether ``goToNextPage()`` was called.
    public var goToNextPageCalled: Bool { goToNextPageRecord.called }

    /// How many times ``goToNextPage()`` was called.
    public var goToNextPageCallsCount: Int { goToNextPageRecord.callsCount }

    /// The `requirements` the mock held at each ``goToNextPage()`` call, oldest first (the call
    /// takes no arguments; this tells which data the code under test asked about).
    public var goToNextPageInvocations: [DataSource.Requirements?] { goToNextPageRecord.invocations }

    /// Runs on each ``goToNextPage()`` call, on the calling thread, after the call is recorded:
    /// for example, push a "loading next page" state to the subject your `observeClosure`
    /// returns.
    public var goToNextPageClosure: (@Sendable () -> Void)? {
        get { goToNextPageRecord.closure }
        set { goToNextPageRecord.closure = newValue }
    }
}
