import Dispatch
@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

@Suite struct RepeatElementTests {
    @Test func sendsTheElementOnceEveryStepUntilDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 205) { Observable.repeatElement(42, scheduler: scheduler) }
        #expect(res.events == [.next(201, 42), .next(202, 42), .next(203, 42), .next(204, 42)])
    }

    @Test func takeStopsItOnAVirtualTimeScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.repeatElement("a", scheduler: scheduler).take(3) }
        #expect(res.events == [.next(201, "a"), .next(202, "a"), .next(203, "a"), .completed(203)])
    }

    @Test func takeStopsItOnTheDefaultCurrentThreadScheduler() {
        let events = synchronousEvents(Observable.repeatElement(7).take(3))
        #expect(events == [.next(7), .next(7), .next(7), .completed])
    }

    @Test func takeFurtherDownTheChainStopsIt() {
        let events = synchronousEvents(Observable.repeatElement(1).scan(0) { $0 + $1 }.skip(2).take(2))
        #expect(events == [.next(3), .next(4), .completed])
    }

    @Test func stopsWhenSubscribedInsideRunningTrampolineWork() {
        let events = Locked<[Event<Int>]>([])
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
            Observable.repeatElement(5).take(2).subscribe { event in events.withLock { $0.append(event) } }
        }
        #expect(events.value == [.next(5), .next(5), .completed])
    }

    @Test func disposingStopsItOnADispatchScheduler() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "repeat")
        let fourSeen = DispatchSemaphore(value: 0)
        let stopped = DispatchSemaphore(value: 0)
        let count = Locked(0)
        let subscription = Observable.repeatElement(1, scheduler: scheduler)
            .subscribe(onNext: { _ in
                count.increment()
                if count.value == 4 { fourSeen.signal() }
            })
        #expect(fourSeen.wait(timeout: .now() + 10) == .success)
        subscription.dispose()
        // Work queued on the serial queue after the disposal runs after any step in flight.
        _ = scheduler.schedule(()) { _ in
            stopped.signal()
            return Disposables.create()
        }
        #expect(stopped.wait(timeout: .now() + 10) == .success)
        let afterDispose = count.value
        let probe = DispatchSemaphore(value: 0)
        _ = scheduler.schedule(()) { _ in
            probe.signal()
            return Disposables.create()
        }
        #expect(probe.wait(timeout: .now() + 10) == .success)
        #expect(count.value == afterDispose)
    }
}
