@_spi(TellerInternals) import TellerRx
import Testing

/// Every operator with a user closure, fed by synchronous sources: once the operator has sent
/// a terminal event or been disposed, its closure never runs again, and an operator that ends
/// early stops the closures upstream of it (issue #12).
@Suite struct OperatorTerminationTests {
    @Test(arguments: ClosureCase.all, SyncSource.allCases)
    func aThrowingClosureRunsOnce(_ testCase: ClosureCase, _ source: SyncSource) {
        let calls = Locked(0)
        let events = Locked<[Event<Int>]>([])
        let chain = testCase.apply(source.make(count: 3)) { _ in
            calls.increment()
            throw TestError(1)
        }
        let subscription = chain.subscribe { event in events.withLock { $0.append(event) } }
        subscription.dispose()
        #expect(calls.value == 1)
        #expect(events.value == [.error(TestError(1))])
    }

    @Test(arguments: ClosureCase.all, SyncSource.allCases)
    func endingDownstreamStopsTheClosure(_ testCase: ClosureCase, _ source: SyncSource) {
        let calls = Locked(0)
        let received = Locked<[Int]>([])
        let chain = testCase.apply(source.make(count: 1_000)) { _ in calls.increment() }
        let subscription = chain.take(2).subscribe(onNext: { received.append($0) })
        subscription.dispose()
        #expect(received.value == [0, 1])
        #expect(calls.value == testCase.callsForTwoElements)
    }

    @Test(arguments: ClosureCase.all)
    func disposingInsideOnNextStopsTheClosure(_ testCase: ClosureCase) {
        let calls = Locked(0)
        let received = Locked<[Int]>([])
        let source = LeakySource()
        let subscription = SingleAssignmentDisposable()
        let chain = testCase.apply(source.observable) { _ in calls.increment() }
        subscription.setDisposable(
            chain.subscribe(onNext: { element in
                received.append(element)
                subscription.dispose()
                // Re-entrantly, as a synchronous source would go on.
                source.send(element + 1)
            })
        )
        source.send(0)
        source.send(2)
        #expect(received.value == [0])
        #expect(calls.value == 1)
    }

    @Test(arguments: PassThroughCase.all, SyncSource.allCases)
    func endingDownstreamStopsTheClosureBeforeAnOperatorWithoutOne(
        _ testCase: PassThroughCase,
        _ source: SyncSource
    ) {
        let calls = Locked(0)
        let received = Locked<[Int]>([])
        let chain = testCase.apply(
            source.make(count: 1_000).map { element in
                calls.increment()
                return element
            }
        )
        let subscription = chain.take(2).subscribe(onNext: { received.append($0) })
        subscription.dispose()
        #expect(received.value.count == 2)
        #expect(calls.value == testCase.upstreamCalls)
    }

    @Test func aSynchronousCreateLoopThroughMapIntoTakeRunsMapTwice() {
        let calls = Locked(0)
        let sent = Locked(0)
        let received = Locked<[Int]>([])
        _ = Observable<Int>.create { observer in
            for element in 0..<1_000 {
                sent.increment()
                observer.onNext(element)
            }
            observer.onCompleted()
            return Disposables.create()
        }
        .map { element in
            calls.increment()
            return element
        }
        .take(2)
        .subscribe(onNext: { received.append($0) })
        #expect(calls.value == 2)
        #expect(sent.value == 1_000)
        #expect(received.value == [0, 1])
    }

    @Test func generateStopsItsClosuresWhenDownstreamEnds() {
        let conditions = Locked(0)
        let iterations = Locked(0)
        let received = Locked<[Int]>([])
        _ = Observable.generate(
            initialState: 0,
            condition: { _ in
                conditions.increment()
                return true
            },
            iterate: { state in
                iterations.increment()
                return state + 1
            }
        )
        .take(2)
        .subscribe(onNext: { received.append($0) })
        #expect(received.value == [0, 1])
        #expect(conditions.value == 2)
        #expect(iterations.value == 1)
    }
}
