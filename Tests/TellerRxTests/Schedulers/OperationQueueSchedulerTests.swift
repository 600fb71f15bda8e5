import Dispatch
import Foundation
@_spi(TellerInternals) import TellerRx
import Testing

@Suite struct OperationQueueSchedulerTests {
    @Test func runsTheActionAsAnOperationOfTheQueue() {
        let queue = OperationQueue()
        let scheduler = OperationQueueScheduler(operationQueue: queue, queuePriority: .high)
        let ranOnQueue = Locked<[Bool]>([])
        _ = scheduler.schedule(7) { state in
            ranOnQueue.withLock { $0.append(OperationQueue.current === queue && state == 7) }
            return Disposables.create()
        }
        queue.waitUntilAllOperationsAreFinished()
        #expect(ranOnQueue.value == [true])
        #expect(scheduler.queuePriority == .high)
        #expect(scheduler.operationQueue === queue)
    }

    @Test func disposingBeforeTheOperationRunsSkipsTheAction() {
        let queue = OperationQueue()
        queue.isSuspended = true
        let scheduler = OperationQueueScheduler(operationQueue: queue)
        let ran = Locked(0)
        let work = scheduler.schedule(()) { _ in
            ran.increment()
            return Disposables.create()
        }
        work.dispose()
        queue.isSuspended = false
        queue.waitUntilAllOperationsAreFinished()
        #expect(ran.value == 0)
    }

    @Test func disposingAfterTheActionRanDisposesWhatItReturned() {
        let queue = OperationQueue()
        let scheduler = OperationQueueScheduler(operationQueue: queue)
        let disposed = Locked(0)
        let work = scheduler.schedule(()) { _ in Disposables.create { disposed.increment() } }
        queue.waitUntilAllOperationsAreFinished()
        #expect(disposed.value == 0)
        work.dispose()
        #expect(disposed.value == 1)
    }

    @Test func observeOnASerialOperationQueueDeliversInOrderOnTheQueue() {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let scheduler = OperationQueueScheduler(operationQueue: queue)
        let done = DispatchSemaphore(value: 0)
        let received = Locked<[Int]>([])
        let offQueue = Locked(0)
        let subscription = Observable.range(start: 1, count: 20)
            .observe(on: scheduler)
            .subscribe(
                onNext: { element in
                    if OperationQueue.current !== queue { offQueue.increment() }
                    received.append(element)
                },
                onCompleted: { done.signal() }
            )
        #expect(done.waitOrTimeOut())
        #expect(received.value == Array(1...20))
        #expect(offQueue.value == 0)
        subscription.dispose()
    }
}
