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
/// impossible combination. As the real repository (and Teller-iOS's mock) does,
/// ``refresh(force:)`` and ``refreshIfNoCache()`` throw
/// `TellerError.objectPropertiesNotSet(["requirements"])` while ``requirements`` is `nil`,
/// whatever their closures say; the call is still recorded.
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
    RecordingRepositoryMock, @unchecked Sendable
{
    // @unchecked: all mutable state is in `mockRecords`, behind its locks.

    /// The requirements type of the mocked repository.
    public typealias MockedRequirements = DataSource.Requirements

    /// Where the recording members (``RecordingRepositoryMock``) keep their records.
    public let mockRecords = RepositoryMockRecords<DataSource.Requirements, DataSource.Cache>()

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

    /// The requirements last set, or `nil`. Setting records the value in `requirementsInvocations`
    /// and then calls `requirementsClosure` with it; the real engine is not started.
    public override var requirements: DataSource.Requirements? {
        get { mockRecords.currentRequirements }
        set { mockRecords.setRequirements(newValue) }
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
}
