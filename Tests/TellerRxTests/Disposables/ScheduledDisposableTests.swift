import Dispatch
@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

@Suite struct ScheduledDisposableTests {
    @Test func disposesTheInnerDisposableWhenTheSchedulerRunsIt() {
        let scheduler = TestScheduler(initialClock: 0)
        let disposedAt = Locked<[Int]>([])
        let disposable = ScheduledDisposable(
            scheduler: scheduler,
            disposable: Disposables.create { disposedAt.append(scheduler.clock) }
        )
        scheduler.scheduleAt(100) { disposable.dispose() }
        scheduler.scheduleAt(100) {
            // Scheduled, not yet run.
            #expect(!disposable.isDisposed)
        }
        scheduler.start()
        #expect(disposedAt.value == [101])
        #expect(disposable.isDisposed)
    }

    @Test func disposingTwiceDisposesTheInnerDisposableOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let count = Locked(0)
        let disposable = ScheduledDisposable(scheduler: scheduler, disposable: Disposables.create { count.increment() })
        scheduler.scheduleAt(10) {
            disposable.dispose()
            disposable.dispose()
        }
        scheduler.scheduleAt(20) { disposable.dispose() }
        scheduler.start()
        #expect(count.value == 1)
    }

    @Test func disposalRunsOnTheSchedulersQueue() async {
        let queue = DispatchQueue(label: "ScheduledDisposableTests")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 7)
        let scheduler = SerialDispatchQueueScheduler(
            queue: queue,
            internalSerialQueueName: "ScheduledDisposableTests.inner"
        )
        await confirmation { disposedOnQueue in
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let disposable = ScheduledDisposable(
                    scheduler: scheduler,
                    disposable: Disposables.create {
                        if DispatchQueue.getSpecific(key: key) == 7 { disposedOnQueue() }
                        continuation.resume()
                    }
                )
                disposable.dispose()
            }
        }
    }

    @Test func scheduledDisposableExposesItsScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let disposable = ScheduledDisposable(scheduler: scheduler, disposable: Disposables.create())
        #expect(disposable.scheduler as? TestScheduler === scheduler)
    }
}
