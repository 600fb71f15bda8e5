import Synchronization
import TellerTesting
import Testing

@_spi(TellerInternals) @testable import TellerRx

/// The element fast path (`ObserverType.onNext` as a requirement, `AnyObserver`'s two entry
/// points, the observers behind `subscribe(onNext:…)`) must behave exactly like `on(.next)`.
@Suite struct ObserverFastPathTests {
    @Test func defaultOnNextSendsANextEvent() {
        let observer = FastPathRecorder<Int>()
        observer.onNext(1)
        observer.on(.next(2))
        observer.onCompleted()
        #expect(observer.events == [.next(1), .next(2), .completed])
    }

    @Test func genericCodeReachesAnObserversOwnOnNext() {
        let observer = NextCounter()
        sendNext(7, to: observer)
        #expect(observer.viaOnNext.load(ordering: .relaxed) == 1)
        #expect(observer.viaOn.load(ordering: .relaxed) == 0)
    }

    @Test func anyObserverWrappingAnObserverForwardsElementsAndTerminalEvents() {
        let recorder = FastPathRecorder<Int>()
        let observer = AnyObserver(recorder)
        observer.onNext(1)
        observer.on(.next(2))
        observer.onError(TestError(3))
        #expect(recorder.events == [.next(1), .next(2), .error(TestError(3))])
    }

    @Test func anyObserverWrappingAClosureReceivesElementsAsNextEvents() {
        let events = Locked<[Event<Int>]>([])
        let observer = AnyObserver<Int> { event in events.withLock { $0.append(event) } }
        observer.onNext(1)
        observer.on(.next(2))
        observer.onCompleted()
        #expect(events.value == [.next(1), .next(2), .completed])
    }

    @Test func nextObserverDropsEverythingAfterATerminalEvent() {
        expectMisuse(
            "An element was sent after the sequence ended; it was dropped.",
            "An element was sent after the sequence ended; it was dropped.",
            "A terminal event was sent after the sequence ended; it was dropped."
        ) {
            let received = Locked<[Int]>([])
            let observer = NextObserver<Int> { received.append($0) }
            observer.onNext(1)
            observer.on(.next(2))
            observer.onCompleted()
            observer.onNext(3)
            observer.on(.next(4))
            observer.onError(TestError(1))
            #expect(received.value == [1, 2])
        }
    }

    @Test func callbackObserverRunsOneTerminalClosureThenOnDisposedAndDropsTheRest() {
        expectMisuse(
            "An element was sent after the sequence ended; it was dropped.",
            "A terminal event was sent after the sequence ended; it was dropped."
        ) {
            let log = Locked<[String]>([])
            let onDisposed = AnonymousDisposable { log.withLock { $0.append("disposed") } }
            let observer = CallbackObserver<Int>(
                onNext: { value in log.withLock { $0.append("next \(value)") } },
                onError: { _ in log.withLock { $0.append("error") } },
                onCompleted: { log.withLock { $0.append("completed") } },
                onEnd: onDisposed
            )
            observer.onNext(1)
            observer.onError(TestError(1))
            observer.onNext(2)
            observer.onCompleted()
            #expect(log.value == ["next 1", "error", "disposed"])
        }
    }

    @Test func subscribeWithOnCompletedOnlyRunsIt() {
        let completions = Locked(0)
        _ = Observable.of(1, 2).subscribe(onCompleted: { completions.increment() })
        #expect(completions.value == 1)
    }

    @Test func disposingBeforeTheEndRunsOnDisposedOnceAndNothingElse() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(300, 2), .completed(400)])
        let log = Locked<[String]>([])
        let subscription = Locked<(any Disposable)?>(nil)
        scheduler.scheduleAt(200) {
            let disposable = xs.map { $0 * 10 }
                .subscribe(
                    onNext: { value in log.withLock { $0.append("next \(value)") } },
                    onCompleted: { log.withLock { $0.append("completed") } },
                    onDisposed: { log.withLock { $0.append("disposed") } }
                )
            subscription.withLock { $0 = disposable }
        }
        scheduler.scheduleAt(250) {
            subscription.value?.dispose()
            subscription.value?.dispose()
        }
        scheduler.start()
        #expect(log.value == ["next 10", "disposed"])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }
}

/// Calls `onNext` through a generic context, the way operators do.
private func sendNext<Observer: ObserverType>(_ element: Observer.Element, to observer: Observer) {
    observer.onNext(element)
}

/// Records events through `on(_:)` only (the default `onNext`).
private final class FastPathRecorder<Element: Sendable>: ObserverType, @unchecked Sendable {
    // @unchecked: `recorded` is locked.
    private let recorded = Locked<[Event<Element>]>([])

    var events: [Event<Element>] {
        recorded.value
    }

    func on(_ event: Event<Element>) {
        recorded.withLock { $0.append(event) }
    }
}

/// Counts which entry point generic code used.
private final class NextCounter: ObserverType, Sendable {
    let viaOnNext = Atomic(0)
    let viaOn = Atomic(0)

    func onNext(_ element: Int) {
        viaOnNext.add(1, ordering: .relaxed)
    }

    func on(_ event: Event<Int>) {
        viaOn.add(1, ordering: .relaxed)
    }
}
