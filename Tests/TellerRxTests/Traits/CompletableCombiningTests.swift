@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

/// A `Sendable` sequence of `count` empty completables that counts how many it has made.
private struct CountingCompletables: Sequence, Sendable {
    let count: Int
    let made = Locked(0)

    func makeIterator() -> AnyIterator<Completable> {
        var remaining = count
        return AnyIterator { [made] in
            guard remaining > 0 else { return nil }
            remaining -= 1
            made.increment()
            return .empty()
        }
    }
}

@Suite struct CompletableCombiningTests {
    /// Cold completables that complete at the given times after subscription.
    private func completing(_ times: [Int], on scheduler: TestScheduler) -> [TestableObservable<Never>] {
        times.map { scheduler.createColdObservable([Recorded<Event<Never>>.completed($0)]) }
    }

    // MARK: concat

    @Test func concatRunsEachAfterThePreviousOneCompleted() {
        let scheduler = TestScheduler(initialClock: 0)
        let sources = completing([10, 20, 30], on: scheduler)
        let res = scheduler.start { Completable.concat(sources.map { $0.asCompletable() }) }
        #expect(res.events == [.completed(260)])
        #expect(sources[0].subscriptions == [Subscription(200, 210)])
        #expect(sources[1].subscriptions == [Subscription(210, 230)])
        #expect(sources[2].subscriptions == [Subscription(230, 260)])
    }

    @Test func concatStopsAtTheFirstFailure() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createColdObservable([Recorded<Event<Never>>.completed(10)])
        let failing = scheduler.createColdObservable([Recorded<Event<Never>>.error(10, TestError(1))])
        let last = scheduler.createColdObservable([Recorded<Event<Never>>.completed(10)])
        let res = scheduler.start {
            Completable.concat(first.asCompletable(), failing.asCompletable(), last.asCompletable())
        }
        #expect(res.events == [.error(220, TestError(1))])
        #expect(last.subscriptions == [])
    }

    @Test func instanceConcatRunsTheSecondAfterTheFirst() {
        let scheduler = TestScheduler(initialClock: 0)
        let sources = completing([10, 20], on: scheduler)
        let res = scheduler.start { sources[0].asCompletable().concat(sources[1].asCompletable()) }
        #expect(res.events == [.completed(230)])
        #expect(sources[1].subscriptions == [Subscription(210, 230)])
    }

    @Test func concatOfALazySequenceMakesEachCompletableWhenItIsNeeded() {
        let completables = CountingCompletables(count: 3)
        let concatenated = Completable.concat(completables)
        #expect(completables.made.value == 0)
        #expect(synchronousEvents(concatenated.asObservable()) == [.completed])
        #expect(completables.made.value == 3)
    }

    @Test func concatOfNothingCompletesAtOnce() {
        #expect(synchronousEvents(Completable.concat([Completable]()).asObservable()) == [.completed])
    }

    @Test func concatDisposedEarlyDisposesTheRunningCompletable() {
        let scheduler = TestScheduler(initialClock: 0)
        let sources = completing([10, 100], on: scheduler)
        let res = scheduler.start(disposed: 250) { Completable.concat(sources.map { $0.asCompletable() }) }
        #expect(res.events == [])
        #expect(sources[1].subscriptions == [Subscription(210, 250)])
    }

    // MARK: zip (and merge)

    @Test func zipRunsAllAtOnceAndCompletesWhenAllHave() {
        let scheduler = TestScheduler(initialClock: 0)
        let sources = completing([30, 10, 20], on: scheduler)
        let res = scheduler.start { Completable.zip(sources.map { $0.asCompletable() }) }
        #expect(res.events == [.completed(230)])
        #expect(
            sources.map(\.subscriptions) == [
                [Subscription(200, 230)], [Subscription(200, 210)], [Subscription(200, 220)],
            ]
        )
    }

    @Test func zipFailsAtTheFirstFailureAndDisposesTheOthers() {
        let scheduler = TestScheduler(initialClock: 0)
        let slow = scheduler.createColdObservable([Recorded<Event<Never>>.completed(50)])
        let failing = scheduler.createColdObservable([Recorded<Event<Never>>.error(10, TestError(2))])
        let res = scheduler.start { Completable.zip(slow.asCompletable(), failing.asCompletable()) }
        #expect(res.events == [.error(210, TestError(2))])
        #expect(slow.subscriptions == [Subscription(200, 210)])
    }

    @Test func zipOfACollectionAndOfNothing() {
        let set: Set<Int> = [1, 2]
        let fromCollection = Completable.zip(set.map { _ in Completable.empty() }.lazy)
        #expect(synchronousEvents(fromCollection.asObservable()) == [.completed])
        #expect(synchronousEvents(Completable.zip([Completable]()).asObservable()) == [.completed])
    }

    @Test func zipNeverKeepsWaiting() {
        let res = TestScheduler(initialClock: 0).start { Completable.zip(.empty(), .never()) }
        #expect(res.events == [])
    }

    @available(*, deprecated)
    @Test func mergeIsTheRxSwift5NameOfZip() {
        let scheduler = TestScheduler(initialClock: 0)
        let sources = completing([30, 10], on: scheduler)
        let res = scheduler.start { Completable.merge(sources.map { $0.asCompletable() }) }
        #expect(res.events == [.completed(230)])
        #expect(
            synchronousEvents(Completable.merge(.empty(), .error(TestError(1))).asObservable()) == [
                .error(TestError(1))
            ]
        )
        #expect(synchronousEvents(Completable.merge([.empty()].lazy).asObservable()) == [.completed])
    }
}
