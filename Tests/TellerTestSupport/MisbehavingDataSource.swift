import Foundation
import Teller
@_spi(TellerInternals) import TellerRx

/// A data source over an in-memory store whose fetches misbehave in every way a seeded die says,
/// and whose saves sometimes throw. The store emits its current value on subscription and after
/// every save, on the saving thread or, given an `emitScheduler`, on that scheduler (a database
/// that notifies on its own queue).
///
/// Shared by the randomized stress tests on real queues: the repository's, and the outbox's
/// (which answers fetches with its fake server's list, shows pending writes, and calms the data
/// source down for its last checks).
package final class MisbehavingDataSource: RepositoryDataSource, @unchecked Sendable {
    // @unchecked: the mutable state is in `random`, `isCalm` and `store`.
    package typealias Cache = [String]
    package typealias Requirements = TestRequirements
    package typealias FetchResult = [String]
    package typealias FetchError = any Error
    package typealias Response = FetchResponse<[String], any Error>

    /// What one fetch does.
    package enum Fetch: CaseIterable {
        case succeeds, succeedsLater, fails, errors, neverAnswers, answersTwice, answersAfterDisposal
    }

    package let maxAgeOfCache = Period(unit: 1, component: .hour)
    package let automaticallyRefresh: Bool
    private let random: Locked<SplitMix64>
    private let isCalm = Locked(false)
    private let scheduler: any SchedulerType
    private let emitScheduler: (any SchedulerType)?
    private let response: (@Sendable (TestRequirements, Int) -> [String])?
    private let applyWrites: (@Sendable ([OutboxRecord], [String]?) -> [String]?)?
    private let store = ObservedStore()
    private let answersTwice = Locked(0)
    private let secondAnswerMark: String

    /// - Parameters:
    ///   - seed: The die's seed.
    ///   - scheduler: Where late answers are sent from.
    ///   - emitScheduler: Where the store tells its observers of a save; `nil`: on the saving
    ///     thread.
    ///   - response: What a successful fetch answers, given the requirements and a random number
    ///     below 1,000, read when the fetch starts; `nil`: one line naming the tag and the number,
    ///     or nothing for one number in ten.
    ///   - applyWrites: How pending outbox writes are shown on a cache; `nil`: not at all.
    ///   - secondAnswerMark: The line a fetch that answers twice adds to its second answer, for
    ///     a ``MisuseCapture`` to recognise that test's reports by.
    package init(
        seed: UInt64,
        automaticallyRefresh: Bool,
        scheduler: any SchedulerType,
        emitScheduler: (any SchedulerType)? = nil,
        response: (@Sendable (TestRequirements, Int) -> [String])? = nil,
        applyWrites: (@Sendable ([OutboxRecord], [String]?) -> [String]?)? = nil,
        secondAnswerMark: String = "again"
    ) {
        random = Locked(SplitMix64(seed: seed))
        self.automaticallyRefresh = automaticallyRefresh
        self.scheduler = scheduler
        self.emitScheduler = emitScheduler
        self.response = response
        self.applyWrites = applyWrites
        self.secondAnswerMark = secondAnswerMark
    }

    /// How many fetches answered twice: TellerRx reports each second answer as misuse.
    package var answeredTwiceCount: Int {
        answersTwice.value
    }

    /// From now on every fetch succeeds at once and no save throws.
    package func calmDown() {
        isCalm.withLock { $0 = true }
    }

    package func cache(tag: String) -> [String]? {
        store.value(tag: tag)
    }

    /// Writes the cache directly, as another part of the app would, on the calling thread.
    package func write(_ cache: [String], tag: String) {
        store.write(cache, tag: tag)
    }

    package func fetchFreshCache(requirements: TestRequirements) -> Single<Response> {
        let (fetch, number) = random.withLock { random in
            (
                isCalm.value
                    ? Fetch.succeeds
                    : random.pick(
                        [
                            Fetch.succeeds, .succeedsLater, .fails, .errors, .neverAnswers, .answersTwice,
                            .answersAfterDisposal,
                        ],
                        weights: [12, 12, 6, 4, 4, 1, 2]
                    ),
                random.below(1_000)
            )
        }
        let response =
            self.response?(requirements, number) ?? (number % 10 == 0 ? [] : ["\(requirements.tag) #\(number)"])
        let scheduler = scheduler
        switch fetch {
        case .succeeds:
            return .just(.success(response))
        case .succeedsLater:
            return Single.create { answer in
                scheduler.schedule(()) { _ in
                    answer(.success(.success(response)))
                    return Disposables.create()
                }
            }
        case .fails:
            return .just(.failure(TestError(1)))
        case .errors:
            return .error(TestError(2))
        case .neverAnswers:
            return .never()
        case .answersTwice:
            let answersTwice = self.answersTwice
            let mark = secondAnswerMark
            return Single.create { answer in
                answersTwice.withLock { $0 += 1 }
                answer(.success(.success(response)))
                answer(.success(.success(response + [mark])))
                return Disposables.create()
            }
        case .answersAfterDisposal:
            // Answers only once Teller stopped listening (the timeout, or nobody waits).
            return Single.create { answer in
                Disposables.create {
                    _ = scheduler.schedule(()) { _ in
                        answer(.success(.success(response)))
                        return Disposables.create()
                    }
                }
            }
        }
    }

    package func saveCache(_ cache: [String], requirements: TestRequirements) throws {
        if random.withLock({ $0.percent(20) }), !isCalm.value { throw TestError(3) }
        write(cache, tag: requirements.tag)
    }

    package func observeCache(requirements: TestRequirements) -> Observable<[String]> {
        let values = store.observe(tag: requirements.tag)
        guard let emitScheduler else { return values }
        return values.observe(on: emitScheduler)
    }

    package func isCacheEmpty(_ cache: [String], requirements: TestRequirements) -> Bool {
        cache.isEmpty
    }

    package func applyPendingWrites(
        _ writes: [OutboxRecord],
        to cache: [String]?,
        requirements: TestRequirements
    ) -> [String]? {
        applyWrites?(writes, cache) ?? cache
    }
}

/// The data source's cache, as a database would keep it: a subscriber gets the current value and
/// then every later write, none missed and none out of order. (Reading the value and then
/// subscribing to changes, as a quick fake might, misses a write made in between: the fake, not
/// Teller, would then show stale data for good.)
private final class ObservedStore: Sendable {
    private struct State {
        var caches: [String: [String]] = [:]
        var subscribers: [Int: (tag: String, observer: AnyObserver<[String]>)] = [:]
        var nextID = 0
    }

    // Observers are called under the lock, as a database would: that is what keeps a
    // subscriber's first value and later writes in order.
    private let state = LockedState(State())

    func value(tag: String) -> [String]? {
        state.withLock { $0.caches[tag] }
    }

    func write(_ cache: [String], tag: String) {
        state.withLock { state in
            state.caches[tag] = cache
            for subscriber in state.subscribers.values where subscriber.tag == tag {
                subscriber.observer.onNext(cache)
            }
        }
    }

    func observe(tag: String) -> Observable<[String]> {
        Observable.create { [self] observer in
            let id = state.withLock { state -> Int in
                state.nextID += 1
                state.subscribers[state.nextID] = (tag, observer)
                observer.onNext(state.caches[tag] ?? [])
                return state.nextID
            }
            return Disposables.create { [self] in
                state.withLock { $0.subscribers[id] = nil }
            }
        }
    }
}
