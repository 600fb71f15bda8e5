import Foundation
import TellerRx
import TellerTestSupport
import Testing

@testable import Teller

/// The state machine alone: no threads, no schedulers, driven only through `handle(_:now:)` with
/// the inputs the engine sends. Inputs that make no sense in the current state are ignored and
/// reported, never crash.
///
/// Times are seconds since the epoch; "now" is 10,000 and the cache may be one hour old, so a
/// cache fetched at 9,000 is fresh and one fetched at 1,000 is too old.
@Suite struct RepositoryStateMachineTests {
    typealias Machine = RepositoryStateMachine<TestRequirements, [String]>

    let calls = LabeledCalls()
    let octocat = TestRequirements(username: "octocat")
    let hubot = TestRequirements(username: "hubot")

    /// A machine with one observer (number 100, a screen showing the repository), unless
    /// `observed` is false: the cache is read for observers only.
    private func machine(automaticallyRefresh: Bool = true, observed: Bool = true) -> Machine {
        var machine = Machine(
            configuration: .init(
                automaticallyRefresh: automaticallyRefresh,
                maxAgeOfCache: Period(unit: 1, component: .hour)
            )
        )
        if observed { _ = machine.handle(.observerAdded(observer(100)), now: Date(timeIntervalSince1970: 10_000)) }
        return machine
    }

    private func stored(_ ticks: Int?) -> TypedStoredFetch<Never>? {
        ticks.map { TypedStoredFetch(lastFetched: Date(timeIntervalSince1970: Double($0))) }
    }

    /// Feeds `input` to `machine` at `ticks` and describes the actions it returns.
    private func feed(_ machine: inout Machine, _ input: Machine.Input, at ticks: Int = 10_000) -> [String] {
        describe(machine.handle(input, now: Date(timeIntervalSince1970: Double(ticks))))
    }

    /// Feeds `input` and returns the states it emits.
    private func states(_ machine: inout Machine, _ input: Machine.Input) -> [CacheState<[String]>] {
        let actions = machine.handle(input, now: Date(timeIntervalSince1970: 10_000))
        _ = describe(actions)
        return actions.compactMap { action in
            if case .emit(let state) = action { state } else { nil }
        }
    }

    /// The end of the flight joined last.
    private func finished(_ result: RefreshResult, stored ticks: Int?) -> Machine.Input {
        .flightFinished(calls.lastFlight, result: result, stored: stored(ticks), saved: nil)
    }

    /// One line an action; a `.logs` action, a line an event.
    private func describe(_ actions: [Machine.Action]) -> [String] {
        actions.flatMap { action -> [String] in
            if case .logs(let events) = action { return events.map { "log \($0)" } }
            return [describe(action)]
        }
    }

    private func describe(_ action: Machine.Action) -> String {
        switch action {
        case .emit(let state):
            return "emit \((state.requirements as? TestRequirements)?.username ?? "nil"): \(StateSummary(state))"
        case .observeCache(let requirements, _, let generation):
            return "observeCache \(requirements.username) #\(generation)"
        case .emitSignedOut: return "signedOut"
        case .stopObservingCache: return "stopObservingCache"
        case .startRefreshTimer(let interval): return "startRefreshTimer \(interval)"
        case .stopRefreshTimer: return "stopRefreshTimer"
        case .joinFlight(let requirements, let flight):
            calls.joined(flight)
            return "joinFlight \(requirements.username)"
        case .leaveFlight: return "leaveFlight"
        case .respond(let responded, let result): return "respond \(calls.describe(responded)) \(result)"
        case .greet(let observer): return "greet o\(observer.id)"
        case .complete(let observers): return "complete \(observers.map { "o\($0.id)" })"
        case .log(let event): return "log \(event)"
        case .logs(let events): return events.map { "log \($0)" }.joined(separator: "; ")
        case .quiet(let reason): return "quiet: \(reason)"
        case .extra(let never): switch never {}
        }
    }

    /// A machine showing octocat's cache `["old"]`, fetched at `fetchedAt`, read.
    private func showingCache(fetchedAt: Int = 9_000, automaticallyRefresh: Bool = false) -> Machine {
        var machine = machine(automaticallyRefresh: automaticallyRefresh)
        _ = machine.handle(
            .setRequirements(octocat, stored: stored(fetchedAt)),
            now: Date(timeIntervalSince1970: 10_000)
        )
        _ = machine.handle(
            .cacheEmitted(observation: 1, cache: ["old"], isEmpty: false),
            now: Date(timeIntervalSince1970: 10_000)
        )
        return machine
    }

    // MARK: First fetch

    @Test func aNewTagStartsTheFirstFetchAndShowsTheCacheOnceSaved() {
        var machine = machine()
        let first = states(&machine, .setRequirements(octocat, stored: nil))
        #expect(first.map { StateSummary($0).text } == ["noCache, firstFetch"])
        #expect(first.first?.isRefreshing == true)
        #expect(feed(&machine, .flightSaving(calls.lastFlight)) == ["quiet: noted"])
        #expect(
            feed(&machine, finished(.successful, stored: 10_000)) == [
                "observeCache octocat #1",
                "emit octocat: cache unread age 10000, justFinishedFirstFetch",
            ]
        )
        #expect(
            feed(&machine, .cacheEmitted(observation: 1, cache: ["new"], isEmpty: false)) == [
                "emit octocat: cache [\"new\"] age 10000"
            ]
        )
    }

    @Test func aFailedFirstFetchShowsItsErrorAndNoCache() {
        var machine = machine()
        _ = feed(&machine, .setRequirements(octocat, stored: nil))
        let failed = states(&machine, finished(.failedError(error: TestError(1)), stored: nil))
        #expect(failed.map { StateSummary($0).text } == ["noCache, firstFetchError TestError(1)"])
        #expect(failed.first?.refreshError as? TestError == TestError(1))
        #expect(failed.first?.isRefreshing == false)
    }

    // MARK: Refresh

    @Test func anUnforcedRefreshOfAFreshCacheIsSkippedAndAForcedOneFetches() {
        var machine = showingCache()
        let skipped = calls.label()
        #expect(
            feed(&machine, .refresh([calls.call(skipped, .refresh(force: false))])) == [
                "log refresh skipped for \"Repos for octocat\": dataNotTooOld",
                "respond w\(skipped) skipped(dataNotTooOld)",
            ]
        )
        let forced = calls.label()
        #expect(
            feed(&machine, .refresh([calls.call(forced, .refresh(force: true))])) == [
                "joinFlight octocat",
                "emit octocat: cache [\"old\"] age 9000, refreshing",
            ]
        )
        // The subscription stays while the flight saves (the tag stays in use); the end reads again.
        #expect(feed(&machine, .flightSaving(calls.lastFlight)) == ["quiet: noted"])
        #expect(
            feed(&machine, finished(.successful, stored: 10_000)) == [
                "respond w\(forced) successful",
                "observeCache octocat #2",
                "emit octocat: cache [\"old\"] age 10000, justFinishedRefresh",
            ]
        )
    }

    @Test func anUnforcedRefreshOfATooOldCacheFetches() {
        var machine = showingCache(fetchedAt: 1_000)
        let waiter = calls.label()
        #expect(
            feed(&machine, .refresh([calls.call(waiter, .refresh(force: false))])) == [
                "joinFlight octocat",
                "emit octocat: cache [\"old\"] age 1000, refreshing",
            ]
        )
    }

    @Test func refreshIfNoCacheSucceedsAtOnceWhenACacheExists() {
        var machine = showingCache()
        let waiter = calls.label()
        #expect(feed(&machine, .refresh([calls.call(waiter, .ifNoCache)])) == ["respond w\(waiter) successful"])
    }

    @Test func refreshIfNoCacheFetchesWhenNoCacheExists() {
        var machine = machine(automaticallyRefresh: false)
        #expect(feed(&machine, .setRequirements(octocat, stored: nil)) == ["emit octocat: noCache"])
        let waiter = calls.label()
        #expect(
            feed(&machine, .refresh([calls.call(waiter, .ifNoCache)])) == [
                "joinFlight octocat",
                "emit octocat: noCache, firstFetch",
            ]
        )
        #expect(
            feed(&machine, finished(.successful, stored: 10_000)) == [
                "respond w\(waiter) successful",
                "observeCache octocat #1",
                "emit octocat: cache unread age 10000, justFinishedFirstFetch",
            ]
        )
    }

    @Test func callsSharingAFlightAreAnsweredTogetherAndItsEndIsShownOnce() {
        var machine = showingCache()
        let first = calls.label()
        let second = calls.label()
        #expect(feed(&machine, .refresh([calls.call(first, .refresh(force: true))])).count == 2)
        // The second call joins the same wait: nothing new to show, no second join.
        #expect(
            feed(&machine, .refresh([calls.call(second, .refresh(force: true))])) == [
                "log refresh joined the fetch running for \"Repos for octocat\""
            ]
        )
        // The subscription stays while the flight saves (the tag stays in use); the end reads again.
        #expect(feed(&machine, .flightSaving(calls.lastFlight)) == ["quiet: noted"])
        #expect(
            feed(&machine, finished(.successful, stored: 10_000)) == [
                "respond w\(first) w\(second) successful", "observeCache octocat #2",
                "emit octocat: cache [\"old\"] age 10000, justFinishedRefresh",
            ]
        )
        // The flight is over for this repository: a late second end is nobody's.
        #expect(feed(&machine, finished(.successful, stored: 10_000)) == ["quiet: otherFlight"])
    }

    @Test func aBurstOfCallsIsOneInputAndOneJoin() {
        var machine = showingCache()
        let burst = (0..<3).map { _ in calls.make(.refresh(force: true)).call }
        #expect(
            feed(&machine, .refresh(burst)) == [
                "joinFlight octocat", "emit octocat: cache [\"old\"] age 9000, refreshing",
                "log refresh joined the fetch running for \"Repos for octocat\"",
                "log refresh joined the fetch running for \"Repos for octocat\"",
            ]
        )
        #expect(feed(&machine, finished(.successful, stored: 10_000)).first == "respond w1 w2 w3 successful")
    }

    @Test func aFlightWhoseCallsAllLeftIsLeftAndTheWaitEndsOnceTheEngineSaysSo() {
        var machine = showingCache()
        let (first, call) = calls.make(.refresh(force: true))
        _ = feed(&machine, .refresh([call]))
        let flight = calls.lastFlight
        #expect(
            feed(&machine, .refreshCallLeft(call)) == [
                "log refresh skipped for \"Repos for octocat\": cancelled", "leaveFlight",
            ]
        )
        // Until the engine is out of the flight, it may be saving: the repository still fetches.
        #expect(machine.active?.flight != nil)
        // A call made meanwhile waits for a new flight once out.
        let (second, again) = calls.make(.refresh(force: true))
        _ = feed(&machine, .refresh([again]))
        #expect(feed(&machine, .flightLeft(flight, stored: stored(9_000))) == ["joinFlight octocat"])
        #expect(calls.lastFlight != flight)
        #expect(
            feed(&machine, finished(.successful, stored: 10_000)) == [
                "respond w\(second) successful", "emit octocat: cache [\"old\"] age 10000, justFinishedRefresh",
            ]
        )
        #expect(first != second)
    }

    // MARK: A failed flight pauses automatic refresh

    enum Resumption: String, CaseIterable, Sendable, CustomStringConvertible {
        case observe, explicitRefresh, requirementsSetAgain, metadataCleared
        var description: String { rawValue }
    }

    @Test(arguments: Resumption.allCases)
    func aFailedFlightPausesAutomaticRefreshUntilSomethingNewHappens(_ resumption: Resumption) {
        var machine = machine()
        #expect(
            feed(&machine, .setRequirements(octocat, stored: stored(1_000))) == [
                "observeCache octocat #1",
                "joinFlight octocat",
                "emit octocat: cache unread age 1000, refreshing",
            ]
        )
        #expect(
            feed(&machine, finished(.failedError(error: TestError(1)), stored: 1_000)) == [
                "emit octocat: cache unread age 1000, refreshError TestError(1)"
            ]
        )
        #expect(machine.isAutomaticRefreshPaused)
        // The cache is still too old, but its emission is no reason to fetch again.
        #expect(
            feed(&machine, .cacheEmitted(observation: 1, cache: ["old"], isEmpty: false)) == [
                "emit octocat: cache [\"old\"] age 1000"
            ]
        )
        let actions: [String]
        switch resumption {
        case .observe:
            actions = feed(&machine, .observed)
        case .explicitRefresh:
            actions = feed(&machine, .refresh([calls.call(calls.label(), .refresh(force: false))]))
        case .requirementsSetAgain:
            actions = feed(&machine, .setRequirements(octocat, stored: stored(1_000)))
        case .metadataCleared:
            actions = feed(&machine, .metadataChanged(tag: octocat.tag, stored: nil))
        }
        #expect(actions.contains { $0.hasPrefix("joinFlight octocat") })
        #expect(!machine.isAutomaticRefreshPaused)
    }

    // MARK: The cache is read for observers only

    @Test func aRepositoryNobodyObservesNeverReadsItsCache() {
        var machine = machine(observed: false)
        #expect(
            feed(&machine, .setRequirements(octocat, stored: stored(9_000))) == ["emit octocat: cache unread age 9000"]
        )
        #expect(
            feed(&machine, .refresh([calls.call(1, .refresh(force: true))])) == [
                "joinFlight octocat", "emit octocat: cache unread age 9000, refreshing",
            ]
        )
        #expect(feed(&machine, .flightSaving(calls.lastFlight)) == ["quiet: noted"])
        #expect(
            feed(&machine, finished(.successful, stored: 10_000)) == [
                "respond w1 successful", "emit octocat: cache unread age 10000, justFinishedRefresh",
            ]
        )
    }

    @Test func anObserverComingDuringARefreshReadsTheCacheAtOnceUnlessTheFlightSaves() {
        var machine = machine(observed: false)
        _ = feed(&machine, .setRequirements(octocat, stored: stored(1_000)))
        #expect(
            feed(&machine, .observed) == ["observeCache octocat #1", "emit octocat: cache unread age 1000, refreshing"]
        )
        #expect(feed(&machine, .observerAdded(observer(1))) == ["greet o1"])
        #expect(
            feed(&machine, .observerRemoved(1)) == [
                "stopObservingCache", "emit octocat: cache unread age 1000, refreshing",
            ]
        )
        #expect(feed(&machine, .flightSaving(calls.lastFlight)) == ["quiet: noted"])
        // The flight writes the cache now: it is read at the flight's end.
        #expect(feed(&machine, .observed) == ["quiet: noRefreshNeeded"])
        #expect(feed(&machine, .observerAdded(observer(2))) == ["greet o2"])
        #expect(
            feed(&machine, finished(.successful, stored: 10_000)) == [
                "observeCache octocat #2", "emit octocat: cache unread age 10000, justFinishedRefresh",
            ]
        )
    }

    @Test func theLastObserverLeavingStopsReadingTheCacheAndTheNextOneReadsItAnew() {
        var machine = showingCache()
        #expect(feed(&machine, .observerRemoved(100)) == ["stopObservingCache", "emit octocat: cache unread age 9000"])
        #expect(
            feed(&machine, .cacheEmitted(observation: 1, cache: ["late"], isEmpty: false)).first
                == "quiet: otherObservation"
        )
        #expect(feed(&machine, .observed) == ["observeCache octocat #2", "emit octocat: cache unread age 9000"])
        #expect(feed(&machine, .observerAdded(observer(1))) == ["greet o1"])
        #expect(
            feed(&machine, .cacheEmitted(observation: 2, cache: ["new"], isEmpty: false)) == [
                "emit octocat: cache [\"new\"] age 9000"
            ]
        )
    }

    /// `observe()` sends `.observed`, then the observer: the last observer may leave in between.
    @Test func anObserverComingAsTheLastOneLeavesStillHasTheCacheRead() {
        var machine = showingCache()
        #expect(feed(&machine, .observed) == ["quiet: noRefreshNeeded"])
        #expect(feed(&machine, .observerRemoved(100)) == ["stopObservingCache", "emit octocat: cache unread age 9000"])
        #expect(feed(&machine, .observerAdded(observer(1))) == ["observeCache octocat #2", "greet o1"])
    }

    // MARK: Reading the cache fails

    @Test func aCacheReadFailureIsShownAndTheNextObserveReadsAgain() {
        var machine = machine(automaticallyRefresh: false)
        _ = feed(&machine, .setRequirements(octocat, stored: stored(9_000)))
        let failed = states(&machine, .cacheFailed(observation: 1, error: TestError(4)))
        #expect(failed.map { StateSummary($0).text } == ["cache unreadable age 9000, cacheReadError TestError(4)"])
        #expect(failed.first?.isLoadingCache == false)
        #expect(failed.first?.refreshError == nil)
        // The failed observation is over: what it still sends is ignored, then and once a new
        // subscription started.
        let stale = [
            "quiet: otherObservation", "log ignored cache emitted while not observed for \"Repos for octocat\"",
        ]
        #expect(feed(&machine, .cacheEmitted(observation: 1, cache: ["x"], isEmpty: false)) == stale)
        #expect(feed(&machine, .observed) == ["observeCache octocat #2", "emit octocat: cache unread age 9000"])
        #expect(feed(&machine, .cacheEmitted(observation: 1, cache: ["x"], isEmpty: false)) == stale)
        #expect(
            feed(&machine, .cacheEmitted(observation: 2, cache: ["old"], isEmpty: false)) == [
                "emit octocat: cache [\"old\"] age 9000"
            ]
        )
    }

    // MARK: Requirements change mid-flight

    @Test func requirementsChangedMidFlightAnswerTheOldWaitersAndShowNothingOfTheOldFlight() {
        var machine = machine()
        _ = feed(&machine, .setRequirements(octocat, stored: nil))
        let refresh = calls.label()
        // It joins the wait the first fetch started.
        #expect(
            feed(&machine, .refresh([calls.call(refresh, .refresh(force: true))])) == [
                "log refresh joined the fetch running for \"Repos for octocat\""
            ]
        )
        #expect(
            feed(&machine, .setRequirements(hubot, stored: stored(9_000))) == [
                "stopObservingCache", "leaveFlight", "log refresh skipped for \"Repos for octocat\": cancelled",
                "respond w\(refresh) skipped(cancelled)", "observeCache hubot #1", "emit hubot: cache unread age 9000",
            ]
        )
        // The old flight's events are nobody's.
        #expect(feed(&machine, .flightSaving(calls.lastFlight)) == ["quiet: otherFlight"])
        #expect(feed(&machine, finished(.successful, stored: 10_000)) == ["quiet: otherFlight"])
        #expect(feed(&machine, .flightLeft(calls.lastFlight, stored: stored(10_000))) == ["quiet: otherFlight"])
        // Octocat's cache was never observed: no number the machine minted is octocat's.
        #expect(
            feed(&machine, .cacheEmitted(observation: 0, cache: ["octocat's"], isEmpty: false)) == [
                "quiet: otherObservation", "log ignored cache emitted while not observed for \"Repos for hubot\"",
            ]
        )
        #expect(feed(&machine, .metadataChanged(tag: octocat.tag, stored: stored(10_000))) == ["quiet: otherTag"])
        #expect(
            feed(&machine, .cacheEmitted(observation: 1, cache: ["for hubot"], isEmpty: false)) == [
                "emit hubot: cache [\"for hubot\"] age 9000"
            ]
        )
    }

    @Test func requirementsSetToNilStopEverythingAndShowNothing() {
        var machine = showingCache()
        let waiter = calls.label()
        _ = feed(&machine, .refresh([calls.call(waiter, .refresh(force: true))]))
        #expect(
            feed(&machine, .setRequirements(nil, stored: nil)) == [
                "stopObservingCache", "leaveFlight", "log refresh skipped for \"Repos for octocat\": cancelled",
                "respond w\(waiter) skipped(cancelled)", "signedOut",
            ]
        )
        #expect(feed(&machine, .observed) == ["quiet: noRequirements"])
        #expect(feed(&machine, finished(.successful, stored: 10_000)) == ["quiet: otherFlight"])
        let late = calls.label()
        #expect(
            feed(&machine, .refresh([calls.call(late, .refresh(force: true))])) == [
                "respond w\(late) skipped(cancelled)"
            ]
        )
    }

    // MARK: Metadata

    @Test func anotherRepositorysFetchShowsItsAgeAndReadsTheCache() {
        var machine = machine(automaticallyRefresh: false)
        _ = feed(&machine, .setRequirements(octocat, stored: nil))
        #expect(
            feed(&machine, .metadataChanged(tag: octocat.tag, stored: stored(9_500))) == [
                "observeCache octocat #1", "emit octocat: cache unread age 9500",
            ]
        )
    }

    @Test func aFailedFirstFetchShowsItsErrorAlthoughAnotherRepositoryFetchedMeanwhile() {
        var machine = machine()
        _ = feed(&machine, .setRequirements(octocat, stored: nil))
        #expect(feed(&machine, .metadataChanged(tag: octocat.tag, stored: stored(9_500))) == ["quiet: noted"])
        #expect(
            feed(&machine, finished(.failedError(error: TestError(2)), stored: 9_500)) == [
                "observeCache octocat #1",
                "emit octocat: cache unread age 9500, refreshError TestError(2)",
            ]
        )
    }

    @Test func aRefreshThatFailsAfterTheMetadataWasClearedShowsItsError() {
        var machine = showingCache()
        let waiter = calls.label()
        _ = feed(&machine, .refresh([calls.call(waiter, .refresh(force: true))]))
        // `Teller.clear()` ran during the flight; its notification is still on its way.
        let failed = states(&machine, finished(.failedError(error: TestError(3)), stored: nil))
        #expect(failed.map { StateSummary($0).text } == ["noCache, firstFetchError TestError(3)"])
        #expect(failed.first?.refreshError as? TestError == TestError(3))
    }

    @Test func aCacheFetchedAgainAfterAClearDuringAFailedRefreshIsReadAgain() {
        var machine = showingCache()
        let waiter = calls.label()
        _ = feed(&machine, .refresh([calls.call(waiter, .refresh(force: true))]))
        // `Teller.clear()` ran during the flight, which then failed: no cache any more.
        _ = feed(&machine, finished(.failedError(error: TestError(3)), stored: nil))
        _ = feed(&machine, .metadataChanged(tag: octocat.tag, stored: nil))
        // Another repository fetches the tag: its new data must be read.
        let actions = feed(&machine, .metadataChanged(tag: octocat.tag, stored: stored(9_900)))
        #expect(actions == ["observeCache octocat #2", "emit octocat: cache unread age 9900"])
    }

    // MARK: Nonsense and shutdown

    @Test func theEndOfAFlightTheRepositoryDoesNotWaitForChangesNothing() {
        var machine = machine(automaticallyRefresh: false)
        _ = feed(&machine, .setRequirements(octocat, stored: nil))
        #expect(
            feed(&machine, .flightFinished(99, result: .successful, stored: stored(10_000), saved: nil)) == [
                "quiet: otherFlight"
            ]
        )
        #expect(feed(&machine, .flightLeft(99, stored: stored(10_000))) == ["quiet: otherFlight"])
        #expect(!machine.hasCache)
    }

    @Test func aCacheEmittedWhileNotObservedIsIgnoredAndReported() {
        var machine = machine()
        #expect(
            feed(&machine, .cacheEmitted(observation: 7, cache: ["x"], isEmpty: false)) == [
                "quiet: otherObservation", "log ignored cache emitted while not observed for \"no requirements\"",
            ]
        )
    }

    @Test func theMachineKeepsItsObserversGreetsNewOnesAndCompletesOnesThatComeAfterShutDown() {
        var machine = machine(observed: false)
        #expect(feed(&machine, .observerAdded(observer(1))) == ["greet o1"])
        #expect(feed(&machine, .observerAdded(observer(2))) == ["greet o2"])
        #expect(machine.hasObservers)
        #expect(feed(&machine, .observerRemoved(1)) == ["quiet: noted"])
        #expect(feed(&machine, .observerRemoved(1)) == ["quiet: observerGone"])
        #expect(machine.observers.map(\.id) == [2])
        #expect(feed(&machine, .shutDown) == ["complete [\"o2\"]"])
        #expect(!machine.hasObservers)
        #expect(feed(&machine, .observerAdded(observer(3))) == ["complete [\"o3\"]"])
        #expect(feed(&machine, .observerRemoved(2)) == ["quiet: observerGone"])
    }

    /// An observer for the machine alone: nothing delivers to it here.
    private func observer(_ id: UInt64) -> Machine.Observer {
        Machine.Observer(id: id, observer: AnyObserver { _ in })
    }

    @Test func shutDownLeavesEverythingCompletesAndThenOnlyAnswersWaiters() {
        var machine = machine(observed: false)
        _ = feed(&machine, .setRequirements(octocat, stored: nil))
        _ = feed(&machine, .observerAdded(observer(1)))
        #expect(feed(&machine, .shutDown) == ["stopObservingCache", "leaveFlight", "complete [\"o1\"]"])
        #expect(feed(&machine, .shutDown) == ["quiet: shutDown"])
        #expect(machine.isShutDown)
        #expect(feed(&machine, finished(.skipped(reason: .cancelled), stored: nil)) == ["quiet: otherFlight"])
        #expect(feed(&machine, .setRequirements(octocat, stored: nil)) == ["quiet: shutDown"])
        #expect(feed(&machine, .observed) == ["quiet: noRequirements"])
        #expect(feed(&machine, .refresh([calls.call(5, .refresh(force: true))])) == ["respond w5 skipped(cancelled)"])
        #expect(feed(&machine, .refresh([calls.call(6, .ifNoCache)])) == ["respond w6 skipped(cancelled)"])
        #expect(feed(&machine, .metadataChanged(tag: octocat.tag, stored: nil)) == ["quiet: noRequirements"])
        #expect(machine.requirements == nil)
    }
}
