import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// A program whose UI scheduler never runs (a command-line tool on the main queue, which nothing
/// drains) hears about it from the logger within seconds, instead of waiting silently for states.
@Suite struct UISchedulerStallTests {
    /// A UI scheduler that never runs what it is given, as the main queue of a process that never
    /// calls `dispatchMain()`; its clock is the background scheduler's.
    private struct NeverRunningScheduler: SchedulerType {
        let clock: TestScheduler

        var now: RxTime { clock.now }

        func schedule<StateType: Sendable>(
            _ state: StateType,
            action: @escaping @Sendable (StateType) -> any Disposable
        ) -> any Disposable {
            Disposables.create()
        }

        func scheduleRelative<StateType: Sendable>(
            _ state: StateType,
            dueTime: RxTimeInterval,
            action: @escaping @Sendable (StateType) -> any Disposable
        ) -> any Disposable {
            Disposables.create()
        }
    }

    private static let stalled = "the UI scheduler ran nothing for 5.0 seconds"

    /// A `Teller` whose UI scheduler never runs, on a virtual-time background scheduler, and what
    /// it logs.
    private static func tellerOverANeverRunningUIScheduler() -> (Teller, TestScheduler, Locked<[String]>) {
        let background = TestScheduler(initialClock: 0)
        let log = Locked<[String]>([])
        let teller = Teller(
            metadataStore: InMemoryFetchMetadataStore(),
            clock: { background.now },
            uiScheduler: NeverRunningScheduler(clock: background),
            backgroundScheduler: background,
            appLifecycleNotifications: nil,
            logger: { event in log.withLock { $0.append(event.description) } }
        )
        return (teller, background, log)
    }

    @Test func aUISchedulerThatNeverRunsIsLoggedOnceFiveSecondsAfterARepositoryNeedsIt() {
        let (teller, background, log) = Self.tellerOverANeverRunningUIScheduler()
        let repository = TellerRepository(dataSource: InMemoryDataSource(), teller: teller)
        let subscription = repository.observe().subscribe()
        repository.requirements = TestRequirements(username: "octocat")

        background.advanceTo(4)
        #expect(!log.value.contains { $0.hasPrefix(Self.stalled) })
        background.advanceTo(5)
        #expect(log.value.filter { $0.hasPrefix(Self.stalled) }.count == 1, "\(log.value)")
        background.advanceTo(600)
        #expect(log.value.filter { $0.hasPrefix(Self.stalled) }.count == 1)
        subscription.dispose()
    }

    @Test func aUISchedulerThatRunsIsNeverReported() {
        let env = VirtualTeller()
        let repository = TellerRepository(dataSource: InMemoryDataSource(), teller: env.teller)
        let subscription = repository.observe().subscribe()
        repository.requirements = TestRequirements(username: "octocat")

        env.scheduler.advanceTo(600)
        #expect(!env.log.value.contains { $0.hasPrefix(Self.stalled) }, "\(env.log.value)")
        subscription.dispose()
    }

    /// A command-line tool that only refreshes (nobody observes) and whose fetch fails never
    /// gives the UI scheduler anything to run: no cache is read and no state is shown, so there
    /// is no stall to report.
    @Test func aRepositoryThatGivesTheUISchedulerNothingIsNeverReported() throws {
        let (teller, background, log) = Self.tellerOverANeverRunningUIScheduler()
        let dataSource = InMemoryDataSource(automaticallyRefresh: false)
        dataSource.respond { _ in .just(.failure(TestError(1))) }
        let repository = TellerRepository(dataSource: dataSource, teller: teller)
        repository.requirements = TestRequirements(username: "octocat")
        let results = Locked<[RefreshResult]>([])
        let refresh = try repository.refresh(force: true).subscribe(onSuccess: { result in
            results.withLock { $0.append(result) }
        })

        background.advanceTo(600)
        #expect(results.value.count == 1)
        if case .failedError? = results.value.first {} else { Issue.record("\(results.value)") }
        #expect(dataSource.calls.fetches == 1)
        #expect(!log.value.contains { $0.hasPrefix(Self.stalled) }, "\(log.value)")
        refresh.dispose()
    }

    /// A background scheduler on virtual time that notes every delay it is asked for.
    private struct DelayRecordingScheduler: SchedulerType {
        let clock: TestScheduler
        let delays = Locked<[RxTimeInterval]>([])

        var now: RxTime { clock.now }

        func schedule<StateType: Sendable>(
            _ state: StateType,
            action: @escaping @Sendable (StateType) -> any Disposable
        ) -> any Disposable {
            clock.schedule(state, action: action)
        }

        func scheduleRelative<StateType: Sendable>(
            _ state: StateType,
            dueTime: RxTimeInterval,
            action: @escaping @Sendable (StateType) -> any Disposable
        ) -> any Disposable {
            delays.withLock { $0.append(dueTime) }
            return clock.scheduleRelative(state, dueTime: dueTime, action: action)
        }
    }

    /// Whether a Teller over `uiScheduler` armed the stall timer by the time a repository's
    /// first state reached its observer.
    private func armsTheStallTimer(uiScheduler: any SchedulerType) -> Bool {
        let background = DelayRecordingScheduler(clock: TestScheduler(initialClock: 0))
        let teller = Teller(
            metadataStore: InMemoryFetchMetadataStore(),
            clock: { background.now },
            uiScheduler: uiScheduler,
            backgroundScheduler: background,
            fetchTimeout: nil,
            appLifecycleNotifications: nil
        )
        let repository = TellerRepository(dataSource: InMemoryDataSource(), teller: teller)
        let firstState = DispatchSemaphore(value: 0)
        let subscription = repository.observe().take(1).subscribe(onNext: { _ in firstState.signal() })
        repository.requirements = TestRequirements(username: "octocat")
        let arrived = firstState.wait(timeout: .now() + 20) == .success
        subscription.dispose()
        #expect(arrived)
        return background.delays.value.contains(.seconds(5))
    }

    /// A serial queue of the scheduler's own always runs what it is given, whatever drains the
    /// main queue: nothing to watch, and no timer for each `Teller` a test or a server makes.
    @Test func aUISchedulerOnAQueueOfItsOwnIsNotWatched() {
        #expect(!armsTheStallTimer(uiScheduler: SerialDispatchQueueScheduler(internalSerialQueueName: "ui")))
    }

    /// A queue the app passed in may be, or target, the main queue: watched.
    @Test func aUISchedulerOnAQueueTheAppPassedInIsWatched() {
        let given = SerialDispatchQueueScheduler(queue: .global(), internalSerialQueueName: "ui")
        #expect(armsTheStallTimer(uiScheduler: given))
    }

    @Test func aTellerNoRepositoryUsedWatchesNothing() {
        let background = TestScheduler(initialClock: 0)
        let log = Locked<[String]>([])
        _ = Teller(
            metadataStore: InMemoryFetchMetadataStore(),
            uiScheduler: NeverRunningScheduler(clock: background),
            backgroundScheduler: background,
            appLifecycleNotifications: nil,
            logger: { event in log.withLock { $0.append(event.description) } }
        )
        background.advanceTo(600)
        #expect(log.value.isEmpty)
    }
}
