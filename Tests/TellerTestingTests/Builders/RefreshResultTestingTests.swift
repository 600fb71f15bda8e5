import Dispatch
import Teller
import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

@Suite struct RefreshResultTestingTests {
    @Test func answersAtOnceWithoutAScheduler() throws {
        #expect(try RefreshResult.testing.successful().toBlocking(timeout: 5).first() == .successful)
        #expect(
            try RefreshResult.testing.failed(TestError(1)).toBlocking(timeout: 5).first()
                == .failedError(error: TestError(1))
        )
        #expect(try RefreshResult.testing.skipped().toBlocking(timeout: 5).first() == .skipped(reason: .dataNotTooOld))
        #expect(
            try RefreshResult.testing.skipped(.cancelled).toBlocking(timeout: 5).first() == .skipped(reason: .cancelled)
        )
    }

    @Test func answersAfterTheDelayOnTheScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let successful = scheduler.start { RefreshResult.testing.successful(after: .seconds(30), scheduler: scheduler) }
        #expect(successful.events == [.next(230, .successful), .completed(230)])
    }

    @Test func failedAndSkippedAlsoTakeADelay() {
        let scheduler = TestScheduler(initialClock: 0)
        let failed = scheduler.createObserver(RefreshResult.self)
        let skipped = scheduler.createObserver(RefreshResult.self)
        scheduler.scheduleAt(100) {
            _ = RefreshResult.testing.failed(TestError(2), after: .seconds(5), scheduler: scheduler).asObservable()
                .subscribe(failed)
            _ = RefreshResult.testing.skipped(.cancelled, after: .seconds(7), scheduler: scheduler).asObservable()
                .subscribe(skipped)
        }
        scheduler.start()
        #expect(failed.events == [.next(105, .failedError(error: TestError(2))), .completed(105)])
        #expect(skipped.events == [.next(107, .skipped(reason: .cancelled)), .completed(107)])
    }

    @Test func runningNeverAnswers() {
        let scheduler = TestScheduler(initialClock: 0)
        let running = scheduler.start { RefreshResult.testing.running() }
        #expect(running.events.isEmpty)
    }
}
