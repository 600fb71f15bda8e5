import Dispatch
import TellerRx
import TellerTesting
import Testing

/// Every chain frees what it holds once it ends or is disposed, counted on the calling thread
/// so suites running in parallel cannot disturb the count.
@Suite(.serialized) struct LeakTests {
    private func leaked(_ body: () -> Void) -> Int {
        resourcesLeaked(by: body)
    }

    @Test func countingIsOnInDebugBuilds() {
        #expect(Resources.isTracking)
        let before = Resources.totalOnCurrentThread
        let subject = PublishSubject<Int>()
        withExtendedLifetime(subject) {
            #expect(Resources.totalOnCurrentThread == before + 1)
        }
    }

    @Test func completedChainFreesEverything() {
        #expect(
            leaked {
                _ = Observable.of(1, 2, 3).map { $0 * 2 }.filter { $0 > 2 }.subscribe(onNext: { _ in })
            } == 0
        )
    }

    @Test func disposedChainOverSubjectFreesEverything() {
        #expect(
            leaked {
                let subject = PublishSubject<Int>()
                let subscription = subject.map { $0 }.filter { _ in true }.subscribe(onNext: { _ in })
                subject.onNext(1)
                subscription.dispose()
            } == 0
        )
    }

    @Test func subscriptionWithOnDisposedFreesEverythingAfterError() {
        #expect(
            leaked {
                _ = Observable<Int>.error(TestError(1)).map { $0 }.subscribe(onError: { _ in }, onDisposed: {})
            } == 0
        )
    }

    @Test func marbleTestFreesEverything() {
        #expect(
            leaked {
                let scheduler = TestScheduler(initialClock: 0)
                let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
                _ = scheduler.start { xs.map { $0 + 1 } }
            } == 0
        )
    }

    @Test func disposedTimerOnAQueueFreesWhatItsActionCapturedAtOnce() {
        #expect(
            leaked {
                let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "leak-timer")
                let captured = PublishSubject<Int>()
                let work = scheduler.scheduleRelative((), dueTime: .seconds(3600)) { _ in
                    captured.onNext(1)
                    return Disposables.create()
                }
                work.dispose()
            } == 0
        )
    }
}
