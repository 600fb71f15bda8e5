import Dispatch
@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

@Suite struct RangeTests {
    @Test func sendsCountIntegersFromStartOnTheCurrentThread() {
        #expect(synchronousEvents(Observable.range(start: 5, count: 3)) == [.next(5), .next(6), .next(7), .completed])
    }

    @Test func zeroCountOnlyCompletes() {
        #expect(synchronousEvents(Observable<Int>.range(start: 5, count: 0)) == [.completed])
    }

    @Test func eachIntegerIsAScheduledStepOnAnotherScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.range(start: -10, count: 3, scheduler: scheduler) }
        #expect(res.events == [.next(201, -10), .next(202, -9), .next(203, -8), .completed(204)])
    }

    @Test func reachesTheLargestValueWithoutOverflowing() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start { Observable.range(start: Int.max, count: 1, scheduler: scheduler) }
        #expect(res.events == [.next(201, Int.max), .completed(202)])
        #expect(
            synchronousEvents(Observable<UInt8>.range(start: 254, count: 2)) == [.next(254), .next(255), .completed]
        )
    }

    @Test func disposingEarlyStopsTheSteps() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 204) { Observable.range(start: -10, count: 5, scheduler: scheduler) }
        #expect(res.events == [.next(201, -10), .next(202, -9), .next(203, -8)])
    }

    @Test func takeStopsTheCurrentThreadLoop() {
        let seen = Locked<[Int]>([])
        let events = synchronousEvents(
            Observable.range(start: 0, count: 1_000_000).map { value in
                seen.append(value)
                return value
            }.take(2)
        )
        #expect(events == [.next(0), .next(1), .completed])
        #expect(seen.value == [0, 1])
    }

    @Test func negativeCountFailsWithArgumentOutOfRange() {
        expectMisuse("range(start:count:) was called with a negative count (-1); it fails with argumentOutOfRange.") {
            #expect(synchronousEvents(Observable.range(start: 0, count: -1)) == [.error(RxError.argumentOutOfRange)])
        }
    }

    @Test func overflowingRangeFailsWithOverflow() {
        expectMisuse(
            "range(start: 9223372036854775807, count: 2) overflows Int; it fails with overflow.",
            "range(start: 100, count: 30) overflows Int8; it fails with overflow."
        ) {
            #expect(synchronousEvents(Observable.range(start: Int.max, count: 2)) == [.error(RxError.overflow)])
            #expect(synchronousEvents(Observable<Int8>.range(start: 100, count: 30)) == [.error(RxError.overflow)])
        }
    }

    @Test func runsOnTheGivenDispatchScheduler() {
        let queue = DispatchQueue(label: "range")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 1)
        let scheduler = SerialDispatchQueueScheduler(queue: queue, internalSerialQueueName: "range.serial")
        let done = DispatchSemaphore(value: 0)
        let record = Locked<[Int]>([])
        let onQueue = Locked(true)
        let subscription = Observable.range(start: 1, count: 3, scheduler: scheduler)
            .subscribe(
                onNext: { value in
                    if DispatchQueue.getSpecific(key: key) != 1 { onQueue.withLock { $0 = false } }
                    record.append(value)
                },
                onCompleted: { done.signal() }
            )
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(record.value == [1, 2, 3])
        #expect(onQueue.value)
        subscription.dispose()
    }
}
