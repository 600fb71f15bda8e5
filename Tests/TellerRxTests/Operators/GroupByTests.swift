import Foundation
@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

/// Words arriving over time; grouped by their lowercased, trimmed spelling.
private let words: [Recorded<Event<String>>] = [
    .next(150, "early"), .next(220, " Red"), .next(240, "blue "), .next(270, "RED"), .next(310, "green"),
    .next(350, "Blue"), .next(390, "red "), .next(430, "GREEN"), .completed(500), .next(510, "late"),
]

private func key(_ word: String) -> String {
    word.lowercased().trimmingCharacters(in: .whitespaces)
}

/// Subscribes to `outer` at 200 and to each group as it arrives; disposes everything at
/// `disposeAll`. Returns each group's recorded events by key, and the outer keys.
private func subscribeToEveryGroup(
    _ scheduler: TestScheduler,
    _ outer: Observable<GroupedObservable<String, String>>,
    disposeAll: TestTime = 1000,
    disposeOuterAt: TestTime? = nil,
    disposeGroup: (key: String, time: TestTime)? = nil
) -> (outer: TestableObserver<String>, groups: Locked<[String: TestableObserver<String>]>) {
    let outerResults = scheduler.createObserver(String.self)
    let groups = Locked<[String: TestableObserver<String>]>([:])
    let groupSubscriptions = Locked<[String: any Disposable]>([:])
    let outerSubscription = Locked<(any Disposable)?>(nil)
    scheduler.scheduleAt(200) {
        let subscription = outer.subscribe(
            onNext: { group in
                outerResults.onNext(group.key)
                let observer = scheduler.createObserver(String.self)
                groups.withLock { $0[group.key] = observer }
                let subscription = group.subscribe(observer)
                groupSubscriptions.withLock { $0[group.key] = subscription }
            },
            onError: { outerResults.onError($0) },
            onCompleted: { outerResults.onCompleted() }
        )
        outerSubscription.withLock { $0 = subscription }
    }
    if let disposeOuterAt {
        scheduler.scheduleAt(disposeOuterAt) { outerSubscription.value?.dispose() }
    }
    if let disposeGroup {
        scheduler.scheduleAt(disposeGroup.time) { groupSubscriptions.value[disposeGroup.key]?.dispose() }
    }
    scheduler.scheduleAt(disposeAll) {
        outerSubscription.value?.dispose()
        for subscription in groupSubscriptions.value.values { subscription.dispose() }
    }
    scheduler.start()
    return (outerResults, groups)
}

@Suite struct GroupByTests {
    @Test func neverSourceSendsNoGroup() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<String>>]([.next(150, "a")]))
        let res = scheduler.start { xs.groupBy(keySelector: key).map(\.key) }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
    }

    @Test func emptySourceCompletesWithoutGroups() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<String>>]([.completed(250)]))
        let res = scheduler.start { xs.groupBy(keySelector: key).map(\.key) }
        #expect(res.events == [.completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func sendsOneGroupPerNewKeyThenCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let calls = Locked(0)
        let xs = scheduler.createHotObservable(words)
        let res = scheduler.start {
            xs.groupBy { word in
                calls.increment()
                return key(word)
            }
            .map(\.key)
        }
        #expect(res.events == [.next(220, "red"), .next(240, "blue"), .next(310, "green"), .completed(500)])
        #expect(xs.subscriptions == [Subscription(200, 500)])
        #expect(calls.value == 7)
    }

    @Test func elementsGoIntoTheirGroups() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(words)
        let res = scheduler.start {
            xs.groupBy(keySelector: key).enumerated().flatMap { index, group in group.map { "\(index) \($0)" } }
        }
        #expect(
            res.events == [
                .next(220, "0  Red"), .next(240, "1 blue "), .next(270, "0 RED"), .next(310, "2 green"),
                .next(350, "1 Blue"), .next(390, "0 red "), .next(430, "2 GREEN"), .completed(500),
            ]
        )
    }

    @Test func sourceErrorEndsEveryGroupAndTheOuterSequence() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(220, "red"), .next(240, "blue"), .error(300, TestError(1)), .next(310, "late"),
        ])
        let (outer, groups) = subscribeToEveryGroup(scheduler, xs.groupBy(keySelector: key))
        #expect(outer.events == [.next(220, "red"), .next(240, "blue"), .error(300, TestError(1))])
        #expect(groups.value["red"]?.events == [.next(220, "red"), .error(300, TestError(1))])
        #expect(groups.value["blue"]?.events == [.next(240, "blue"), .error(300, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func throwingKeySelectorFailsEveryGroupAndDisposesTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(words)
        let outer = xs.groupBy { word -> String in
            if word == "RED" { throw TestError(2) }
            return key(word)
        }
        let (outerResults, groups) = subscribeToEveryGroup(scheduler, outer)
        #expect(outerResults.events == [.next(220, "red"), .next(240, "blue"), .error(270, TestError(2))])
        #expect(groups.value["red"]?.events == [.next(220, " Red"), .error(270, TestError(2))])
        #expect(groups.value["blue"]?.events == [.next(240, "blue "), .error(270, TestError(2))])
        #expect(xs.subscriptions == [Subscription(200, 270)])
    }

    @Test func disposingWithNoGroupSubscribedDisposesTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let calls = Locked(0)
        let xs = scheduler.createHotObservable(words)
        let res = scheduler.start(disposed: 320) {
            xs.groupBy { word in
                calls.increment()
                return key(word)
            }
            .map(\.key)
        }
        #expect(res.events == [.next(220, "red"), .next(240, "blue"), .next(310, "green")])
        #expect(xs.subscriptions == [Subscription(200, 320)])
        #expect(calls.value == 4)
    }

    @Test func groupsCompleteWithTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(words)
        let (outer, groups) = subscribeToEveryGroup(scheduler, xs.groupBy(keySelector: key))
        #expect(outer.events == [.next(220, "red"), .next(240, "blue"), .next(310, "green"), .completed(500)])
        #expect(
            groups.value["red"]?.events == [.next(220, " Red"), .next(270, "RED"), .next(390, "red "), .completed(500)]
        )
        #expect(groups.value["blue"]?.events == [.next(240, "blue "), .next(350, "Blue"), .completed(500)])
        #expect(groups.value["green"]?.events == [.next(310, "green"), .next(430, "GREEN"), .completed(500)])
        #expect(xs.subscriptions == [Subscription(200, 500)])
    }

    @Test func groupsKeepTheSourceSubscribedAfterTheOuterSubscriptionIsDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(words)
        let (outer, groups) = subscribeToEveryGroup(scheduler, xs.groupBy(keySelector: key), disposeOuterAt: 260)
        // No new group after 260 ("green" is dropped), but the existing groups keep receiving.
        #expect(outer.events == [.next(220, "red"), .next(240, "blue")])
        #expect(groups.value.keys.sorted() == ["blue", "red"])
        #expect(
            groups.value["red"]?.events == [.next(220, " Red"), .next(270, "RED"), .next(390, "red "), .completed(500)]
        )
        #expect(xs.subscriptions == [Subscription(200, 500)])
    }

    @Test func disposingTheOuterAndEveryGroupDisposesTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(words)
        let (_, groups) = subscribeToEveryGroup(scheduler, xs.groupBy(keySelector: key), disposeAll: 360)
        #expect(groups.value["blue"]?.events == [.next(240, "blue "), .next(350, "Blue")])
        #expect(xs.subscriptions == [Subscription(200, 360)])
    }

    @Test func disposingOneGroupLeavesTheOthersRunning() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable(words)
        let (_, groups) = subscribeToEveryGroup(
            scheduler,
            xs.groupBy(keySelector: key),
            disposeGroup: (key: "red", time: 300)
        )
        #expect(groups.value["red"]?.events == [.next(220, " Red"), .next(270, "RED")])
        #expect(groups.value["blue"]?.events == [.next(240, "blue "), .next(350, "Blue"), .completed(500)])
        #expect(xs.subscriptions == [Subscription(200, 500)])
    }

    @Test func groupsFromASynchronousSourceArriveOnItsThread() {
        let events = synchronousEvents(
            Observable.of(1, 2, 3, 4, 5).groupBy { $0.isMultiple(of: 2) }.flatMap { group in
                group.map { "\(group.key ? "even" : "odd") \($0)" }
            }
        )
        #expect(
            events == [.next("odd 1"), .next("even 2"), .next("odd 3"), .next("even 4"), .next("odd 5"), .completed]
        )
    }
}
