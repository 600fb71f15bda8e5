import Dispatch
import Foundation
@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

/// Whole-second ticks with no processing delay: the plain `VirtualTimeScheduler` base.
private struct SecondsConverter: VirtualTimeConverterType {
    func convertFromVirtualTime(_ virtualTime: Int) -> RxTime { Date(timeIntervalSince1970: Double(virtualTime)) }
    func convertToVirtualTime(_ time: RxTime) -> Int { Int(time.timeIntervalSince1970) }
    func convertFromVirtualTimeInterval(_ virtualTimeInterval: Int) -> TimeInterval { Double(virtualTimeInterval) }
    func convertToVirtualTimeInterval(_ timeInterval: TimeInterval) -> Int { Int(timeInterval) }
    func offsetVirtualTime(_ time: Int, offset: Int) -> Int { time + offset }
    func compareVirtualTime(_ lhs: Int, _ rhs: Int) -> VirtualTimeComparison {
        lhs < rhs ? .lessThan : (lhs == rhs ? .equal : .greaterThan)
    }
}

@Suite struct VirtualTimeSchedulerTests {
    private func record(
        _ label: String,
        into log: Locked<[String]>,
        at clock: @escaping @Sendable () -> Int
    ) -> @Sendable (()) -> any Disposable {
        { _ in
            log.withLock { $0.append("\(label)@\(clock())") }
            return Disposables.create()
        }
    }

    @Test func startRunsWorkInDueTimeOrderMovingTheClock() {
        let scheduler = TestScheduler(initialClock: 0)
        let log = Locked<[String]>([])
        let clock: @Sendable () -> Int = { scheduler.clock }
        _ = scheduler.scheduleAbsoluteVirtual((), time: 30, action: record("c", into: log, at: clock))
        _ = scheduler.scheduleAbsoluteVirtual((), time: 10, action: record("a", into: log, at: clock))
        _ = scheduler.scheduleAbsoluteVirtual((), time: 20, action: record("b", into: log, at: clock))
        scheduler.start()
        #expect(log.value == ["a@10", "b@20", "c@30"])
        #expect(scheduler.clock == 30)
        #expect(!scheduler.isRunning)
    }

    @Test func workDueAtTheSameTimeRunsInSchedulingOrder() {
        let scheduler = TestScheduler(initialClock: 0)
        let log = Locked<[String]>([])
        let clock: @Sendable () -> Int = { scheduler.clock }
        for label in ["first", "second", "third"] {
            _ = scheduler.scheduleAbsoluteVirtual((), time: 10, action: record(label, into: log, at: clock))
        }
        scheduler.start()
        #expect(log.value == ["first@10", "second@10", "third@10"])
    }

    @Test func workScheduledWhileRunningRunsInTheSameStart() {
        let scheduler = TestScheduler(initialClock: 0)
        let log = Locked<[String]>([])
        scheduler.scheduleAt(10) {
            log.withLock { $0.append("outer@\(scheduler.clock)") }
            _ = scheduler.scheduleRelative((), dueTime: .seconds(5)) { _ in
                log.withLock { $0.append("inner@\(scheduler.clock)") }
                return Disposables.create()
            }
        }
        scheduler.start()
        #expect(log.value == ["outer@10", "inner@15"])
    }

    @Test func advanceToRunsOnlyWorkDueByThenAndSetsTheClock() {
        let scheduler = TestScheduler(initialClock: 0)
        let log = Locked<[String]>([])
        let clock: @Sendable () -> Int = { scheduler.clock }
        _ = scheduler.scheduleAbsoluteVirtual((), time: 10, action: record("a", into: log, at: clock))
        _ = scheduler.scheduleAbsoluteVirtual((), time: 20, action: record("b", into: log, at: clock))
        _ = scheduler.scheduleAbsoluteVirtual((), time: 30, action: record("c", into: log, at: clock))
        scheduler.advanceTo(20)
        #expect(log.value == ["a@10", "b@20"])
        #expect(scheduler.clock == 20)
        scheduler.advanceTo(25)
        #expect(log.value == ["a@10", "b@20"])
        #expect(scheduler.clock == 25)
        scheduler.advanceTo(40)
        #expect(log.value == ["a@10", "b@20", "c@30"])
        #expect(scheduler.clock == 40)
    }

    @Test func advanceToAnEarlierTimeRunsNothingAndKeepsTheClock() {
        let scheduler = TestScheduler(initialClock: 50)
        let ran = Locked(false)
        scheduler.scheduleAt(60) { ran.withLock { $0 = true } }
        scheduler.advanceTo(40)
        #expect(scheduler.clock == 50)
        #expect(!ran.value)
    }

    @Test func stopEndsStartAfterTheCurrentItemAndLeavesTheRestQueued() {
        let scheduler = TestScheduler(initialClock: 0)
        let log = Locked<[String]>([])
        scheduler.scheduleAt(10) {
            log.withLock { $0.append("a") }
            scheduler.stop()
        }
        scheduler.scheduleAt(20) { log.withLock { $0.append("b") } }
        scheduler.start()
        #expect(log.value == ["a"])
        #expect(scheduler.clock == 10)
        scheduler.start()
        #expect(log.value == ["a", "b"])
    }

    @Test func sleepMovesTheClockWithoutRunningWork() {
        let scheduler = TestScheduler(initialClock: 0)
        let ran = Locked(false)
        scheduler.scheduleAt(10) { ran.withLock { $0 = true } }
        scheduler.sleep(50)
        #expect(scheduler.clock == 50)
        #expect(!ran.value)
        // Work already due runs on the next start, at the current clock.
        scheduler.start()
        #expect(ran.value)
        #expect(scheduler.clock == 50)
    }

    @Test func disposedWorkDoesNotRun() {
        let scheduler = TestScheduler(initialClock: 0)
        let ran = Locked(false)
        let work = scheduler.scheduleRelative((), dueTime: .seconds(10)) { _ in
            ran.withLock { $0 = true }
            return Disposables.create()
        }
        work.dispose()
        scheduler.start()
        #expect(!ran.value)
    }

    @Test func disposingWorkAfterItRanDisposesWhatItReturned() {
        let scheduler = TestScheduler(initialClock: 0)
        let innerDisposed = Locked(false)
        let work = scheduler.scheduleRelative((), dueTime: .seconds(10)) { _ in
            Disposables.create { innerDisposed.withLock { $0 = true } }
        }
        scheduler.start()
        #expect(!innerDisposed.value)
        work.dispose()
        #expect(innerDisposed.value)
    }

    @Test func testSchedulerRunsWorkScheduledForNowOneTickLater() {
        let scheduler = TestScheduler(initialClock: 100)
        let ranAt = Locked<Int?>(nil)
        _ = scheduler.schedule(()) { _ in
            ranAt.withLock { $0 = scheduler.clock }
            return Disposables.create()
        }
        scheduler.start()
        #expect(ranAt.value == 101)
    }

    @Test func testSchedulerWithoutProcessingDelayRunsWorkForNowAtNow() {
        let scheduler = TestScheduler(initialClock: 100, simulateProcessingDelay: false)
        let ranAt = Locked<Int?>(nil)
        _ = scheduler.schedule(()) { _ in
            ranAt.withLock { $0 = scheduler.clock }
            return Disposables.create()
        }
        scheduler.start()
        #expect(ranAt.value == 100)
    }

    @Test func testSchedulerConvertsRealIntervalsWithItsResolution() {
        let scheduler = TestScheduler(initialClock: 0, resolution: 0.001)
        let ranAt = Locked<Int?>(nil)
        _ = scheduler.scheduleRelative((), dueTime: .milliseconds(250)) { _ in
            ranAt.withLock { $0 = scheduler.clock }
            return Disposables.create()
        }
        scheduler.start()
        #expect(ranAt.value == 250)
        #expect(scheduler.now == Date(timeIntervalSince1970: 0.25))
    }

    @Test func baseSchedulerRunsWorkForNowWithoutDelay() {
        let scheduler = VirtualTimeScheduler(initialClock: 5, converter: SecondsConverter())
        let ranAt = Locked<Int?>(nil)
        _ = scheduler.schedule(()) { _ in
            ranAt.withLock { $0 = scheduler.clock }
            return Disposables.create()
        }
        _ = scheduler.scheduleRelative((), dueTime: .seconds(3)) { _ in
            let clock = scheduler.clock
            ranAt.withLock { $0 = ($0 ?? 0) * 100 + clock }
            return Disposables.create()
        }
        scheduler.start()
        #expect(ranAt.value == 508)
        #expect(scheduler.now == Date(timeIntervalSince1970: 8))
    }

    @Test func schedulePeriodicTicksEveryPeriodUntilDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let ticks = Locked<[String]>([])
        let periodic = scheduler.schedulePeriodic(0, startAfter: .seconds(5), period: .seconds(10)) { state in
            ticks.withLock { $0.append("\(state)@\(scheduler.clock)") }
            return state + 1
        }
        scheduler.scheduleAt(40) { periodic.dispose() }
        scheduler.start()
        #expect(ticks.value == ["0@5", "1@15", "2@25", "3@35"])
    }

    @Test func nestedStartIsIgnoredAndTheOuterRunContinues() {
        expectMisuse("VirtualTimeScheduler is already running; nested start()/advanceTo() ignored.") {
            let scheduler = TestScheduler(initialClock: 0)
            let log = Locked<[String]>([])
            scheduler.scheduleAt(10) {
                log.withLock { $0.append("outer@\(scheduler.clock)") }
                scheduler.advanceTo(100)
                log.withLock { $0.append("after nested@\(scheduler.clock)") }
            }
            scheduler.scheduleAt(20) { log.withLock { $0.append("later@\(scheduler.clock)") } }
            scheduler.start()
            #expect(log.value == ["outer@10", "after nested@10", "later@20"])
        }
    }
}
