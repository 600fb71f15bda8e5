import Dispatch
import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// A first page is saved on the background scheduler whatever thread its fetch answered on; a
/// fetch that answered while it was being started there is saved in that same turn, without a
/// second trip through the scheduler.
@Suite struct FetchAnswerTurnTests {
    /// Runs everything on a concurrent queue and numbers each scheduled action (its turn); the
    /// action's thread knows its number while it runs.
    struct TurnScheduler: SchedulerType {
        private let base = ConcurrentDispatchQueueScheduler(qos: .userInitiated)
        private let turns = LockedState(0)

        /// The turn running on this thread, or `nil` outside every turn of every `TurnScheduler`.
        static var current: Int? {
            Thread.current.threadDictionary["FetchAnswerTurnTests.turn"] as? Int
        }

        var now: RxTime { base.now }

        func schedule<StateType: Sendable>(
            _ state: StateType,
            action: @escaping @Sendable (StateType) -> any Disposable
        ) -> any Disposable {
            let turn = nextTurn()
            return base.schedule(state) { state in Self.inTurn(turn) { action(state) } }
        }

        func scheduleRelative<StateType: Sendable>(
            _ state: StateType,
            dueTime: RxTimeInterval,
            action: @escaping @Sendable (StateType) -> any Disposable
        ) -> any Disposable {
            let turn = nextTurn()
            return base.scheduleRelative(state, dueTime: dueTime) { state in Self.inTurn(turn) { action(state) } }
        }

        private func nextTurn() -> Int {
            turns.withLock { turns in
                turns += 1
                return turns
            }
        }

        private static func inTurn(_ turn: Int, _ body: () -> any Disposable) -> any Disposable {
            let key = "FetchAnswerTurnTests.turn"
            let previous = Thread.current.threadDictionary[key]
            Thread.current.threadDictionary[key] = turn
            defer { Thread.current.threadDictionary[key] = previous }
            return body()
        }
    }

    /// Notes the turn (and queue) its fetch was called in and its save ran in.
    final class TurnRecordingDataSource: RepositoryDataSource, Sendable {
        typealias Cache = [String]
        typealias Requirements = TestRequirements
        typealias FetchResult = [String]
        typealias FetchError = any Error

        static let queueKey = DispatchSpecificKey<String>()
        let maxAgeOfCache = Period(unit: 1, component: .hour)
        let automaticallyRefresh = false
        /// Where the fetch answers: `nil` at once while it is subscribed, or on this queue later.
        let answerQueue: DispatchQueue?
        let inner = InMemoryDataSource()
        let fetchTurn = LockedState<Int?>(nil)
        let save = LockedState<(turn: Int?, queue: String?)?>(nil)

        init(answeringOn answerQueue: DispatchQueue?) {
            self.answerQueue = answerQueue
            answerQueue?.setSpecific(key: Self.queueKey, value: "answer")
        }

        func fetchFreshCache(requirements: TestRequirements) -> Single<FetchResponse<[String], any Error>> {
            fetchTurn.withLock { $0 = TurnScheduler.current }
            guard let answerQueue else { return .just(.success(["a"])) }
            return Single.create { single in
                answerQueue.async { single(.success(.success(["a"]))) }
                return Disposables.create()
            }
        }

        func saveCache(_ cache: [String], requirements: TestRequirements) throws {
            let queue = DispatchQueue.getSpecific(key: Self.queueKey)
            save.withLock { $0 = (TurnScheduler.current, queue) }
            try inner.saveCache(cache, requirements: requirements)
        }

        func observeCache(requirements: TestRequirements) -> Observable<[String]> {
            inner.observeCache(requirements: requirements)
        }

        func isCacheEmpty(_ cache: [String], requirements: TestRequirements) -> Bool {
            cache.isEmpty
        }
    }

    private func refresh(with dataSource: TurnRecordingDataSource) throws -> RefreshResult? {
        let teller = Teller(
            metadataStore: InMemoryFetchMetadataStore(),
            uiScheduler: SerialDispatchQueueScheduler(internalSerialQueueName: "fetch-answer-turn.ui"),
            backgroundScheduler: TurnScheduler()
        )
        let repository = TellerRepository(dataSource: dataSource, teller: teller)
        repository.requirements = TestRequirements(username: "octocat")
        return try withExtendedLifetime(repository) {
            try repository.refresh(force: true).toBlocking(timeout: 30).first()
        }
    }

    @Test func aFetchThatAnswersWhileItIsStartedIsSavedInTheTurnThatStartedIt() throws {
        let dataSource = TurnRecordingDataSource(answeringOn: nil)
        #expect(try refresh(with: dataSource) == .successful)
        let fetchTurn = try #require(dataSource.fetchTurn.value)
        let save = try #require(dataSource.save.value)
        #expect(save.turn == fetchTurn)
    }

    @Test func aFetchThatAnswersLaterOnItsOwnQueueIsSavedInALaterBackgroundTurnNotOnThatQueue() throws {
        let dataSource = TurnRecordingDataSource(answeringOn: DispatchQueue(label: "fetch-answer-turn.answer"))
        #expect(try refresh(with: dataSource) == .successful)
        let fetchTurn = try #require(dataSource.fetchTurn.value)
        let save = try #require(dataSource.save.value)
        let saveTurn = try #require(save.turn)
        #expect(saveTurn > fetchTurn)
        #expect(save.queue == nil)
    }
}
