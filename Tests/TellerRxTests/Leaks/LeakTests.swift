import Dispatch
import TellerRx
import TellerTesting
import Testing

/// Every chain frees what it holds once it ends or is disposed. Serialized, and compared as
/// deltas, because `Resources.total` is process-wide and other suites run in parallel. Other
/// suites may still allocate while one of these runs, so each check retries a few times before
/// it reports a leak.
@Suite(.serialized) struct LeakTests {
    /// Runs `body` up to five times and returns the smallest number of resources it left
    /// alive: a real leak shows up every time, noise from parallel suites does not.
    private func leaked(_ body: () -> Void) -> Int {
        var smallest = Int.max
        for _ in 0..<5 {
            smallest = min(smallest, resourcesLeaked(by: body))
            if smallest == 0 { break }
        }
        return smallest
    }

    @Test func countingIsOnInDebugBuilds() {
        #expect(Resources.isTracking)
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
