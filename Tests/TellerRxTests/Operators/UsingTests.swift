@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

/// A resource that records when it was disposed (in virtual time) and logs it.
private final class TestResource: Disposable {
    let id: Int
    private let scheduler: TestScheduler
    private let log: Locked<[String]>
    private let disposedAt = Locked<[Int]>([])

    init(id: Int, scheduler: TestScheduler, log: Locked<[String]>) {
        self.id = id
        self.scheduler = scheduler
        self.log = log
    }

    var disposeTimes: [Int] { disposedAt.value }

    func dispose() {
        disposedAt.append(scheduler.clock)
        log.withLock { $0.append("resource \(id) disposed") }
    }
}

@Suite struct UsingTests {
    /// Runs `using` over `xs` with resources numbered from 1; returns what happened.
    private func run(
        _ events: [Recorded<Event<Int>>],
        disposed: Int = 1000
    ) -> (
        res: [Recorded<Event<Int>>], xs: [Subscription], resources: [TestResource], log: [String]
    ) {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable(events)
        let log = Locked<[String]>([])
        let resources = Locked<[TestResource]>([])
        let res = scheduler.start(disposed: disposed) {
            Observable.using(
                { () -> TestResource in
                    let resource = TestResource(id: resources.value.count + 1, scheduler: scheduler, log: log)
                    resources.withLock { $0.append(resource) }
                    log.withLock { $0.append("resource \(resource.id) created") }
                    return resource
                },
                observableFactory: { resource in
                    log.withLock { $0.append("sequence for \(resource.id)") }
                    return xs.asObservable().do(onDispose: { log.withLock { $0.append("source disposed") } })
                }
            )
            .do(onCompleted: { log.withLock { $0.append("completion delivered") } })
        }
        return (res.events, xs.subscriptions, resources.value, log.value)
    }

    @Test func resourceLivesUntilTheSequenceCompletesAndIsDisposedAfterIt() {
        let run = run([.next(10, 1), .completed(50)])
        #expect(run.res == [.next(210, 1), .completed(250)])
        #expect(run.xs == [Subscription(200, 250)])
        #expect(run.resources.map(\.disposeTimes) == [[250]])
        #expect(
            run.log == [
                "resource 1 created", "sequence for 1", "completion delivered", "source disposed",
                "resource 1 disposed",
            ]
        )
    }

    @Test func resourceIsDisposedWhenTheSequenceFails() {
        let run = run([.next(10, 1), .error(50, TestError(1))])
        #expect(run.res == [.next(210, 1), .error(250, TestError(1))])
        #expect(run.resources.map(\.disposeTimes) == [[250]])
    }

    @Test func resourceIsDisposedAfterTheSourceWhenTheSubscriptionIsDisposed() {
        let run = run([.next(10, 1), .next(100, 2)], disposed: 250)
        #expect(run.res == [.next(210, 1)])
        #expect(run.xs == [Subscription(200, 250)])
        #expect(run.resources.map(\.disposeTimes) == [[250]])
        #expect(run.log.suffix(2) == ["source disposed", "resource 1 disposed"])
    }

    @Test func resourceOfANeverEndingSequenceLivesUntilDisposal() {
        let run = run([Recorded<Event<Int>>]([.next(10, 1)]))
        #expect(run.res == [.next(210, 1)])
        #expect(run.resources.map(\.disposeTimes) == [[1000]])
    }

    @Test func resourceFactoryThatThrowsSendsTheErrorAndMakesNoSequence() {
        let scheduler = TestScheduler(initialClock: 0)
        let madeSequence = Locked(0)
        let res = scheduler.start {
            Observable<Int>.using(
                { () throws -> BooleanDisposable in throw TestError(5) },
                observableFactory: { _ in
                    madeSequence.increment()
                    return .just(1)
                }
            )
        }
        #expect(res.events == [.error(200, TestError(5))])
        #expect(madeSequence.value == 0)
    }

    @Test func observableFactoryThatThrowsSendsTheErrorAndDisposesTheResource() {
        let scheduler = TestScheduler(initialClock: 0)
        let resource = BooleanDisposable()
        let res = scheduler.start {
            Observable<Int>.using({ resource }, observableFactory: { _ in throw TestError(6) })
        }
        #expect(res.events == [.error(200, TestError(6))])
        #expect(resource.isDisposed)
    }

    @Test func eachSubscriptionGetsItsOwnResource() {
        let made = Locked<[BooleanDisposable]>([])
        let subject = PublishSubject<Int>()
        let observable = Observable<Int>.using(
            { () -> BooleanDisposable in
                let resource = BooleanDisposable()
                made.withLock { $0.append(resource) }
                return resource
            },
            observableFactory: { _ in subject.asObservable() }
        )
        let first = observable.subscribe()
        let second = observable.subscribe()
        #expect(made.value.count == 2)
        first.dispose()
        #expect(made.value.map(\.isDisposed) == [true, false])
        second.dispose()
        #expect(made.value.map(\.isDisposed) == [true, true])
    }

    /// Compiles only because the factories are not `@Sendable`.
    @Test func factoriesMayCaptureNonSendableState() {
        let counter = NonSendableCounter()
        let observable = Observable<Int>.using(
            { () -> BooleanDisposable in
                counter.value += 10
                return BooleanDisposable()
            },
            observableFactory: { _ in
                counter.value += 1
                return .just(counter.value)
            }
        )
        #expect(synchronousEvents(observable) == [.next(11), .completed])
    }
}
