@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

/// `Single.zip` of `s` through the overload for their count, summing the elements.
private func singleZipSum(_ s: [Single<Int>], _ variant: ArityVariant) -> Single<Int> {
    switch (s.count, variant) {
    case (2, .resultSelector): Single.zip(s[0], s[1]) { $0 + $1 }
    case (3, .resultSelector): Single.zip(s[0], s[1], s[2]) { $0 + $1 + $2 }
    case (4, .resultSelector): Single.zip(s[0], s[1], s[2], s[3]) { $0 + $1 + $2 + $3 }
    case (5, .resultSelector): Single.zip(s[0], s[1], s[2], s[3], s[4]) { $0 + $1 + $2 + $3 + $4 }
    case (6, .resultSelector): Single.zip(s[0], s[1], s[2], s[3], s[4], s[5]) { $0 + $1 + $2 + $3 + $4 + $5 }
    case (7, .resultSelector):
        Single.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6]) { $0 + $1 + $2 + $3 + $4 + $5 + $6 }
    case (8, .resultSelector):
        Single.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]) { $0 + $1 + $2 + $3 + $4 + $5 + $6 + $7 }
    case (2, .tuple): Single.zip(s[0], s[1]).map { t in t.0 + t.1 }
    case (3, .tuple): Single.zip(s[0], s[1], s[2]).map { t in t.0 + t.1 + t.2 }
    case (4, .tuple): Single.zip(s[0], s[1], s[2], s[3]).map { t in t.0 + t.1 + t.2 + t.3 }
    case (5, .tuple): Single.zip(s[0], s[1], s[2], s[3], s[4]).map { t in t.0 + t.1 + t.2 + t.3 + t.4 }
    case (6, .tuple):
        Single.zip(s[0], s[1], s[2], s[3], s[4], s[5]).map { t in t.0 + t.1 + t.2 + t.3 + t.4 + t.5 }
    case (7, .tuple):
        Single.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6]).map { t in t.0 + t.1 + t.2 + t.3 + t.4 + t.5 + t.6 }
    case (8, .tuple):
        Single.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]).map { t in
            t.0 + t.1 + t.2 + t.3 + t.4 + t.5 + t.6 + t.7
        }
    default: preconditionFailure("no zip overload for \(s.count) singles")
    }
}

/// `Maybe.zip` of `m` through the overload for their count, summing the elements.
private func maybeZipSum(_ m: [Maybe<Int>], _ variant: ArityVariant) -> Maybe<Int> {
    switch (m.count, variant) {
    case (2, .resultSelector): Maybe.zip(m[0], m[1]) { $0 + $1 }
    case (3, .resultSelector): Maybe.zip(m[0], m[1], m[2]) { $0 + $1 + $2 }
    case (4, .resultSelector): Maybe.zip(m[0], m[1], m[2], m[3]) { $0 + $1 + $2 + $3 }
    case (5, .resultSelector): Maybe.zip(m[0], m[1], m[2], m[3], m[4]) { $0 + $1 + $2 + $3 + $4 }
    case (6, .resultSelector): Maybe.zip(m[0], m[1], m[2], m[3], m[4], m[5]) { $0 + $1 + $2 + $3 + $4 + $5 }
    case (7, .resultSelector):
        Maybe.zip(m[0], m[1], m[2], m[3], m[4], m[5], m[6]) { $0 + $1 + $2 + $3 + $4 + $5 + $6 }
    case (8, .resultSelector):
        Maybe.zip(m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7]) { $0 + $1 + $2 + $3 + $4 + $5 + $6 + $7 }
    case (2, .tuple): Maybe.zip(m[0], m[1]).map { t in t.0 + t.1 }
    case (3, .tuple): Maybe.zip(m[0], m[1], m[2]).map { t in t.0 + t.1 + t.2 }
    case (4, .tuple): Maybe.zip(m[0], m[1], m[2], m[3]).map { t in t.0 + t.1 + t.2 + t.3 }
    case (5, .tuple): Maybe.zip(m[0], m[1], m[2], m[3], m[4]).map { t in t.0 + t.1 + t.2 + t.3 + t.4 }
    case (6, .tuple):
        Maybe.zip(m[0], m[1], m[2], m[3], m[4], m[5]).map { t in t.0 + t.1 + t.2 + t.3 + t.4 + t.5 }
    case (7, .tuple):
        Maybe.zip(m[0], m[1], m[2], m[3], m[4], m[5], m[6]).map { t in t.0 + t.1 + t.2 + t.3 + t.4 + t.5 + t.6 }
    case (8, .tuple):
        Maybe.zip(m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7]).map { t in
            t.0 + t.1 + t.2 + t.3 + t.4 + t.5 + t.6 + t.7
        }
    default: preconditionFailure("no zip overload for \(m.count) maybes")
    }
}

/// Cold sources where source `i` (from 1) succeeds with `i` at `10 * i`.
private func succeeding(_ count: Int, on scheduler: TestScheduler) -> [TestableObservable<Int>] {
    (1...count).map { i in scheduler.createColdObservable([.next(10 * i, i), .completed(10 * i)]) }
}

@Suite struct SingleZipTests {
    @Test(arguments: 2...8, ArityVariant.allCases)
    func succeedsWhenEverySingleHasSucceeded(arity: Int, variant: ArityVariant) {
        let scheduler = TestScheduler(initialClock: 0)
        let sources = succeeding(arity, on: scheduler)
        let res = scheduler.start { singleZipSum(sources.map { $0.asSingle() }, variant) }
        let last = 200 + 10 * arity
        #expect(res.events == [.next(last, arity * (arity + 1) / 2), .completed(last)])
        for (index, source) in sources.enumerated() {
            #expect(source.subscriptions == [Subscription(200, 200 + 10 * (index + 1))])
        }
    }

    @Test(arguments: 2...8, ArityVariant.allCases)
    func firstFailureFailsAtOnceAndDisposesTheOthers(arity: Int, variant: ArityVariant) {
        let scheduler = TestScheduler(initialClock: 0)
        let sources =
            succeeding(arity - 1, on: scheduler)
            + [scheduler.createColdObservable([Recorded<Event<Int>>.error(15, TestError(1))])]
        let res = scheduler.start { singleZipSum(sources.map { $0.asSingle() }, variant) }
        #expect(res.events == [.error(215, TestError(1))])
        #expect(sources[0].subscriptions == [Subscription(200, 210)])
        for source in sources.dropFirst() {
            #expect(source.subscriptions == [Subscription(200, 215)])
        }
    }

    @Test(arguments: 2...8, ArityVariant.allCases)
    func disposingEarlyDisposesEverySingle(arity: Int, variant: ArityVariant) {
        let scheduler = TestScheduler(initialClock: 0)
        let sources = succeeding(arity, on: scheduler)
        let res = scheduler.start(disposed: 215) { singleZipSum(sources.map { $0.asSingle() }, variant) }
        #expect(res.events == [])
        for source in sources.dropFirst() {
            #expect(source.subscriptions == [Subscription(200, 215)])
        }
    }

    @Test func tupleKeepsEachElementType() throws {
        let pair: Single<(Int, String)> = Single.zip(Single.just(1), Single.just("a"))
        let value = try pair.toBlocking().single()
        #expect(value.0 == 1 && value.1 == "a")
    }

    @Test func resultSelectorThatThrowsFailsTheSingle() {
        let res = TestScheduler(initialClock: 0).start { () -> Single<Int> in
            Single.zip(Single.just(1), Single.just(2)) { _, _ in throw TestError(3) }
        }
        #expect(res.events == [.error(200, TestError(3))])
    }

    @Test func neverSingleKeepsTheZipWaiting() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Single.zip(Single.just(1), Single<Int>.never()) { $0 + $1 } }
        #expect(res.events == [])
    }

    @Test func collectionZipSucceedsWithTheElementsInOrder() {
        let scheduler = TestScheduler(initialClock: 0)
        let sources = succeeding(3, on: scheduler).reversed().map { $0.asSingle() }
        let res = scheduler.start { Single.zip(sources) }
        #expect(res.events == [.next(230, [3, 2, 1]), .completed(230)])
    }

    @Test func collectionZipWithResultSelector() {
        let scheduler = TestScheduler(initialClock: 0)
        let sources = succeeding(4, on: scheduler).map { $0.asSingle() }
        let res = scheduler.start { Single.zip(sources) { $0.reduce(0, +) } }
        #expect(res.events == [.next(240, 10), .completed(240)])
    }

    @Test func collectionZipFailsAtTheFirstFailure() {
        let scheduler = TestScheduler(initialClock: 0)
        let failing = scheduler.createColdObservable([Recorded<Event<Int>>.error(15, TestError(4))])
        let sources = succeeding(3, on: scheduler)
        let res = scheduler.start { Single.zip(sources.map { $0.asSingle() } + [failing.asSingle()]) }
        #expect(res.events == [.error(215, TestError(4))])
        #expect(sources[2].subscriptions == [Subscription(200, 215)])
    }

    @Test func emptyCollectionSucceedsAtOnceWithAnEmptyArray() {
        let res = TestScheduler(initialClock: 0).start { Single.zip([Single<Int>]()) }
        #expect(res.events == [.next(200, []), .completed(200)])
    }

    @Test func emptyCollectionCallsTheResultSelectorAtEachSubscription() {
        let calls = Locked(0)
        let zipped = Single.zip([Single<Int>]()) { elements -> Int in
            calls.increment()
            guard elements.isEmpty else { throw TestError(9) }
            return calls.value
        }
        #expect(calls.value == 0)
        #expect(synchronousEvents(zipped.asObservable()) == [.next(1), .completed])
        #expect(synchronousEvents(zipped.asObservable()) == [.next(2), .completed])
        let failing = Single.zip([Single<Int>]()) { _ -> Int in throw TestError(5) }
        #expect(synchronousEvents(failing.asObservable()) == [.error(TestError(5))])
    }
}

@Suite struct MaybeZipTests {
    @Test(arguments: 2...8, ArityVariant.allCases)
    func succeedsWhenEveryMaybeHasSucceeded(arity: Int, variant: ArityVariant) {
        let scheduler = TestScheduler(initialClock: 0)
        let sources = succeeding(arity, on: scheduler)
        let res = scheduler.start { maybeZipSum(sources.map { $0.asMaybe() }, variant) }
        let last = 200 + 10 * arity
        #expect(res.events == [.next(last, arity * (arity + 1) / 2), .completed(last)])
    }

    @Test(arguments: 2...8, ArityVariant.allCases)
    func anEmptyMaybeCompletesTheZipEmptyOnceAllHaveEnded(arity: Int, variant: ArityVariant) {
        let scheduler = TestScheduler(initialClock: 0)
        let sources =
            [scheduler.createColdObservable([Recorded<Event<Int>>.completed(5)])]
            + succeeding(arity, on: scheduler).dropFirst()
        let res = scheduler.start { maybeZipSum(sources.map { $0.asMaybe() }, variant) }
        #expect(res.events == [.completed(200 + 10 * arity)])
    }

    @Test func firstFailureFailsTheZip() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(30, 1), .completed(30)])
        let ys = scheduler.createColdObservable([Recorded<Event<Int>>.error(10, TestError(1))])
        let res = scheduler.start { Maybe.zip(xs.asMaybe(), ys.asMaybe()) { $0 + $1 } }
        #expect(res.events == [.error(210, TestError(1))])
        #expect(xs.subscriptions == [Subscription(200, 210)])
    }

    @Test func collectionZipOfMaybes() {
        let scheduler = TestScheduler(initialClock: 0)
        let sources = succeeding(3, on: scheduler).map { $0.asMaybe() }
        let res = scheduler.start { Maybe.zip(sources) }
        #expect(res.events == [.next(230, [1, 2, 3]), .completed(230)])
        let summed = TestScheduler(initialClock: 0).start { Maybe.zip([Maybe.just(1), .just(2)]) { $0.reduce(0, +) } }
        #expect(summed.events == [.next(200, 3), .completed(200)])
    }

    @Test func collectionZipWithAnEmptyMaybeCompletesEmpty() {
        let res = TestScheduler(initialClock: 0).start { Maybe.zip([Maybe.just(1), .empty()]) }
        #expect(res.events == [.completed(200)])
    }

    @Test func emptyCollectionSucceedsWithAnEmptyArray() {
        let res = TestScheduler(initialClock: 0).start { Maybe.zip([Maybe<Int>]()) }
        #expect(res.events == [.next(200, []), .completed(200)])
        let selected = TestScheduler(initialClock: 0).start { Maybe.zip([Maybe<Int>]()) { $0.count + 1 } }
        #expect(selected.events == [.next(200, 1), .completed(200)])
    }
}
