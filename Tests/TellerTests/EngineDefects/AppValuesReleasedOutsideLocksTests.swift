import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// A value of the app's is released by Teller outside every lock: its deinit is app code, and app
/// code may call back into the repository. Each cache value here carries a probe whose deinit
/// reads `repository.requirements` and observes the repository again, which take the engine's
/// locks: released under one of them, the deinit would deadlock (debug builds' error-checking
/// mutex traps instead). The values leave the machine as the cache emits anew, on sign-out and
/// when the repository is released.
@Suite struct AppValuesReleasedOutsideLocksTests {
    let env = VirtualTeller()

    @Test func cacheValuesAreReleasedOutsideTheEngineLocks() {
        let dataSource = ProbedCacheDataSource()
        let released = Locked<[String]>([])
        var repository: TellerRepository<ProbedCacheDataSource>? = TellerRepository(
            dataSource: dataSource,
            teller: env.teller
        )
        let weakRepository = WeakBox(repository)
        dataSource.onRelease = { name in
            // App code in a deinit that calls back into the repository.
            _ = weakRepository.value?.requirements
            _ = weakRepository.value?.observe().subscribe()
            released.withLock { $0.append(name) }
        }
        env.markFetched(TestRequirements(username: "octocat"), at: 50)
        // Names only: an observer that kept the states would keep the values.
        let shown = Locked<[String]>([])
        env.scheduler.scheduleAt(100) {
            weakRepository.value?.requirements = TestRequirements(username: "octocat")
            _ = weakRepository.value?.observe()
                .subscribe(onNext: { state in
                    guard case .cache(let cache?, _) = state.state else { return }
                    shown.withLock { $0.append(cache.name) }
                })
        }
        env.scheduler.scheduleAt(110) { dataSource.emit("second") }
        env.scheduler.scheduleAt(120) { dataSource.emit("third") }
        env.scheduler.scheduleAt(130) { weakRepository.value?.requirements = nil }
        withExtendedLifetime(repository) { env.scheduler.start() }
        repository = nil
        dataSource.emit("after release")
        #expect(shown.value == ["first", "second", "third"])
        // Every value but the one the data source still holds was released, each once.
        #expect(released.value.sorted() == ["first", "second", "third"])
    }
}

/// A cache value with a probe: when the last copy goes, the probe tells its data source.
struct ProbedCache: Sendable {
    let name: String
    let probe: ReleaseProbe
}

final class ReleaseProbe: Sendable {
    private let name: String
    private let onRelease: @Sendable (String) -> Void

    init(name: String, onRelease: @escaping @Sendable (String) -> Void) {
        self.name = name
        self.onRelease = onRelease
    }

    deinit {
        onRelease(name)
    }
}

/// A data source whose cache is one `ProbedCache` it replaces on `emit`.
final class ProbedCacheDataSource: RepositoryDataSource, @unchecked Sendable {
    // @unchecked: the test sets `onRelease` before anything runs; the subject is thread-safe.
    typealias Cache = ProbedCache
    typealias Requirements = TestRequirements
    typealias FetchResult = String
    typealias FetchError = any Error

    let maxAgeOfCache = Period(unit: 1, component: .hour)
    var automaticallyRefresh: Bool { false }
    var onRelease: @Sendable (String) -> Void = { _ in }
    private let values = Locked<BehaviorSubject<ProbedCache>?>(nil)

    /// Replaces the cache with a value named `name`.
    func emit(_ name: String) {
        subject.onNext(ProbedCache(name: name, probe: ReleaseProbe(name: name, onRelease: onRelease)))
    }

    private var subject: BehaviorSubject<ProbedCache> {
        values.withLock { subject in
            if let subject { return subject }
            let created = BehaviorSubject(
                value: ProbedCache(name: "first", probe: ReleaseProbe(name: "first", onRelease: onRelease))
            )
            subject = created
            return created
        }
    }

    func fetchFreshCache(requirements: TestRequirements) -> Single<FetchResponse<String, any Error>> {
        .never()
    }

    func saveCache(_ cache: String, requirements: TestRequirements) throws {}

    func observeCache(requirements: TestRequirements) -> Observable<ProbedCache> {
        subject.asObservable()
    }

    func isCacheEmpty(_ cache: ProbedCache, requirements: TestRequirements) -> Bool {
        false
    }
}

/// A weak reference a `@Sendable` closure can hold.
final class WeakBox<Object: AnyObject>: @unchecked Sendable {
    // @unchecked: `value` is only read; a weak reference's load is thread-safe.
    weak var value: Object?

    init(_ value: Object?) {
        self.value = value
    }
}
