import Dispatch
@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

@Suite struct TimerTests {
    // MARK: interval

    @Test func intervalSendsIncreasingValuesEveryPeriodUntilDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.interval(.seconds(100), scheduler: scheduler) }
        #expect(
            res.events == [
                .next(300, 0), .next(400, 1), .next(500, 2), .next(600, 3), .next(700, 4),
                .next(800, 5), .next(900, 6),
            ]
        )
    }

    @Test func intervalDisposedEarlyStopsTicking() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 350) { Observable<Int>.interval(.seconds(100), scheduler: scheduler) }
        #expect(res.events == [.next(300, 0)])
    }

    @Test func intervalDisposedBeforeTheFirstTickSendsNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 250) { Observable<Int>.interval(.seconds(100), scheduler: scheduler) }
        #expect(res.events == [])
    }

    @Test func intervalWithZeroPeriodTicksEveryVirtualTick() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 210) { Observable<Int>.interval(.seconds(0), scheduler: scheduler) }
        #expect(res.events == (0..<9).map { .next(201 + $0, $0) })
    }

    @Test func intervalCounterWrapsAroundAtTheMaximum() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 330) { Observable<Int8>.interval(.seconds(1), scheduler: scheduler) }
        let values = res.events.compactMap { $0.value.element }
        #expect(values.count == 129)
        #expect(values.suffix(3) == [126, 127, -128])
    }

    @Test func eachSubscriptionGetsItsOwnCounter() {
        let scheduler = TestScheduler(initialClock: 0)
        let interval = Observable<Int>.interval(.seconds(10), scheduler: scheduler)
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(100) { _ = interval.take(for: .seconds(25), scheduler: scheduler).subscribe(first) }
        scheduler.scheduleAt(115) { _ = interval.take(for: .seconds(25), scheduler: scheduler).subscribe(second) }
        scheduler.start()
        #expect(first.events == [.next(110, 0), .next(120, 1), .completed(125)])
        #expect(second.events == [.next(125, 0), .next(135, 1), .completed(140)])
    }

    // MARK: timer

    @Test func timerWithoutPeriodSendsZeroAndCompletesAfterTheDueTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.timer(.seconds(300), scheduler: scheduler) }
        #expect(res.events == [.next(500, 0), .completed(500)])
    }

    @Test func timerDisposedBeforeTheDueTimeSendsNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 400) { Observable<Int>.timer(.seconds(300), scheduler: scheduler) }
        #expect(res.events == [])
    }

    @Test func timerWithZeroDueTimeFiresOneTickLater() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable<Int>.timer(.seconds(0), scheduler: scheduler) }
        #expect(res.events == [.next(201, 0), .completed(201)])
    }

    @Test func timerWithPeriodStartsAfterTheDueTimeThenTicksEveryPeriod() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 500) {
            Observable<Int>.timer(.seconds(50), period: .seconds(100), scheduler: scheduler)
        }
        #expect(res.events == [.next(250, 0), .next(350, 1), .next(450, 2)])
    }

    @Test func timerWithPeriodWorksForOtherIntegerTypes() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 230) {
            Observable<UInt64>.timer(.seconds(5), period: .seconds(10), scheduler: scheduler)
        }
        #expect(res.events == [.next(205, UInt64(0)), .next(215, 1), .next(225, 2)])
    }

    // MARK: Real Dispatch queues

    @Test func intervalOnARealQueueSendsIncreasingValuesOnItsQueueAndStopsAfterDispose() {
        let marker = QueueMarker(label: "interval.target")
        let scheduler = SerialDispatchQueueScheduler(queue: marker.queue, internalSerialQueueName: "interval")
        let values = Locked<[Int]>([])
        let offQueue = Locked(0)
        let fiveReceived = DispatchSemaphore(value: 0)
        let ticksAfterStop = Locked(0)
        let stopped = Locked(false)
        let tracked = Tracked(0)
        let refs = WeakRefs()
        refs.track(tracked)
        let subscription = Observable<Int>.interval(.milliseconds(2), scheduler: scheduler)
            .subscribe(onNext: { [tracked] value in
                _ = tracked
                if stopped.value {
                    ticksAfterStop.increment()
                    return
                }
                if !marker.isCurrent { offQueue.increment() }
                values.append(value)
                if value == 4 { fiveReceived.signal() }
            })
        #expect(fiveReceived.waitOrTimeOut())
        // Stop on the queue itself, so no tick can be running while we flip the flag.
        let disposed = DispatchSemaphore(value: 0)
        marker.queue.async {
            subscription.dispose()
            stopped.withLock { $0 = true }
            disposed.signal()
        }
        #expect(disposed.waitOrTimeOut())
        // The cancelled timer lets go of the observer (and what it captured): with the observer
        // gone, no later tick can reach it. This is what proves that nothing more can come.
        let flushed = DispatchSemaphore(value: 0)
        marker.queue.async { flushed.signal() }
        #expect(flushed.waitOrTimeOut())
        _ = consume tracked
        #expect(refs.aliveCount == 0)
        // And no tick came in between: a fence twenty-five periods later, on the same queue.
        #expect(passFence(on: scheduler, after: .milliseconds(50)))
        #expect(ticksAfterStop.value == 0)
        #expect(Array(values.value.prefix(5)) == [0, 1, 2, 3, 4])
        #expect(values.value == Array(0..<values.value.count))
        #expect(offQueue.value == 0)
    }

    @Test func timerOnARealQueueSendsZeroThenCompletes() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "timer")
        let events = Locked<[String]>([])
        let done = DispatchSemaphore(value: 0)
        let subscription = Observable<Int>.timer(.milliseconds(1), scheduler: scheduler)
            .subscribe(
                onNext: { value in events.withLock { $0.append("next(\(value))") } },
                onCompleted: {
                    events.withLock { $0.append("completed") }
                    done.signal()
                }
            )
        #expect(done.waitOrTimeOut())
        #expect(events.value == ["next(0)", "completed"])
        subscription.dispose()
    }
}
