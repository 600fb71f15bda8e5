import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// Signing out (the README's recipe: `requirements = nil` and `Teller.clear()`, in either order):
/// afterwards no surface shows the previous user's data, and no fetch of theirs is left running.
/// `observe()` keeps Teller-iOS's rule (nothing while no requirements are set).
@Suite struct SignOutTests {
    let env = VirtualTeller()
    let octocat = TestRequirements(username: "octocat")

    /// A repository showing octocat's fetched cache, and its data source, whose fetches answer
    /// after 10 ticks and are counted while they run.
    private func signedIn() -> (TellerRepository<InMemoryDataSource>, InMemoryDataSource, Locked<Int>) {
        let running = Locked(0)
        let dataSource = InMemoryDataSource()
        dataSource.respond(with: { [env] requirements in
            env.fetch(["\(requirements.username)'s repos"], after: 10)
                .do(
                    onSubscribed: { running.withLock { $0 += 1 } },
                    onDispose: { running.withLock { $0 -= 1 } }
                )
        })
        let repository = TellerRepository(dataSource: dataSource, teller: env.teller)
        repository.requirements = octocat
        return (repository, dataSource, running)
    }

    @Test func theModelShowsNothingOfThePreviousUserOnceSignedOut() {
        let (repository, _, _) = signedIn()
        let model = RepositoryModel(repository: repository)
        env.scheduler.advanceTo(50)
        #expect(model.state?.cache == ["octocat's repos"])

        env.scheduler.scheduleAt(60) { repository.requirements = nil }
        env.scheduler.advanceTo(100)

        #expect(model.state == nil)
    }

    @Test func statesEndAtTheSignOutAndALoopStartedWhileSignedOutEndsAtOnce() async {
        let (repository, _, _) = signedIn()
        var iterator = repository.states.makeAsyncIterator()
        env.scheduler.advanceTo(50)
        var shown: [[String]?] = []
        while let state = await iterator.next() {
            shown.append(state.cache)
            if state.cache != nil { break }
        }
        #expect(shown.last == ["octocat's repos"])

        repository.requirements = nil
        env.scheduler.advanceTo(60)
        #expect(await iterator.next() == nil)

        var later = repository.states.makeAsyncIterator()
        env.scheduler.advanceTo(70)
        #expect(await later.next() == nil)
    }

    @Test func observeSessionSaysSignedOutAndANewObserverSeesNoPreviousData() {
        let (repository, _, _) = signedIn()
        let session = env.scheduler.createObserver(CacheState<[String]>?.self)
        _ = repository.observeSession().subscribe(session)
        env.scheduler.scheduleAt(60) { repository.requirements = nil }
        env.scheduler.advanceTo(100)
        #expect(session.events.last?.value.element.map { $0 == nil } == true)

        let late = env.scheduler.createObserver(CacheState<[String]>?.self)
        _ = repository.observeSession().subscribe(late)
        env.scheduler.advanceTo(120)
        #expect(late.events.count == 1)
        #expect(late.events.first?.value.element.map { $0 == nil } == true)
    }

    @Test func observeKeepsTeller_iOSsRuleAndSendsNothingWhileSignedOut() {
        let (repository, _, _) = signedIn()
        env.scheduler.advanceTo(50)
        repository.requirements = nil
        let late = env.scheduler.createObserver(CacheState<[String]>.self)
        _ = repository.observe().subscribe(late)
        env.scheduler.advanceTo(100)
        #expect(late.events.isEmpty)
    }

    enum Order: String, CaseIterable, Sendable, CustomStringConvertible {
        case clearThenNil, nilThenClear
        var description: String { rawValue }
    }

    @Test(arguments: Order.allCases)
    func noFetchOfThePreviousUserIsLeftRunningInEitherOrder(_ order: Order) {
        let (repository, dataSource, running) = signedIn()
        let model = RepositoryModel(repository: repository)
        env.scheduler.advanceTo(50)
        #expect(dataSource.calls.fetches == 1)

        env.scheduler.scheduleAt(60) {
            switch order {
            case .clearThenNil:
                // Clearing first makes the observed repository fetch octocat again at once.
                env.teller.clear()
                repository.requirements = nil
            case .nilThenClear:
                repository.requirements = nil
                env.teller.clear()
            }
        }
        env.scheduler.advanceTo(200)

        #expect(running.value == 0, "a fetch of the previous user still runs")
        #expect(dataSource.calls.saves == 1, "a fetch of the previous user was saved after the sign-out")
        #expect(model.state == nil)
    }
}
