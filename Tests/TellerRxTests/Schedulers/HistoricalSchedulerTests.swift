import Dispatch
import Foundation
@_spi(TellerInternals) import TellerRx
import Testing

@Suite struct HistoricalSchedulerTests {
    private static let start = Date(timeIntervalSince1970: 1_000)

    @Test func defaultClockStartsAtTheUnixEpoch() {
        #expect(HistoricalScheduler().now == Date(timeIntervalSince1970: 0))
        #expect(HistoricalScheduler().clock == Date(timeIntervalSince1970: 0))
    }

    @Test func runsWorkInDateOrderMovingTheClockToEachDueDate() {
        let scheduler = HistoricalScheduler(initialClock: Self.start)
        let log = Locked<[String]>([])
        @Sendable func record(_ label: String) -> @Sendable (()) -> any Disposable {
            { _ in
                log.withLock { $0.append("\(label)@\(scheduler.now.timeIntervalSince(Self.start))") }
                return Disposables.create()
            }
        }
        _ = scheduler.scheduleRelative((), dueTime: .seconds(30), action: record("c"))
        _ = scheduler.scheduleAbsoluteVirtual((), time: Self.start.addingTimeInterval(10), action: record("a"))
        _ = scheduler.scheduleRelativeVirtual((), dueTime: 20.5, action: record("b"))
        _ = scheduler.schedule((), action: record("now"))
        scheduler.start()
        #expect(log.value == ["now@0.0", "a@10.0", "b@20.5", "c@30.0"])
        #expect(scheduler.clock == Self.start.addingTimeInterval(30))
    }

    @Test func advanceToRunsOnlyTheWorkDueAndSetsTheClock() {
        let scheduler = HistoricalScheduler(initialClock: Self.start)
        let ran = Locked<[Int]>([])
        _ = scheduler.scheduleRelative((), dueTime: .seconds(5)) { _ in
            ran.append(5)
            return Disposables.create()
        }
        _ = scheduler.scheduleRelative((), dueTime: .seconds(50)) { _ in
            ran.append(50)
            return Disposables.create()
        }
        scheduler.advanceTo(Self.start.addingTimeInterval(20))
        #expect(ran.value == [5])
        #expect(scheduler.now == Self.start.addingTimeInterval(20))
        scheduler.start()
        #expect(ran.value == [5, 50])
    }

    @Test func timeBasedOperatorsRunOnTheHistoricalClock() {
        let scheduler = HistoricalScheduler(initialClock: Self.start)
        let ticks = Locked<[TimeInterval]>([])
        let subscription = Observable<Int>.interval(.seconds(60), scheduler: scheduler)
            .take(3)
            .subscribe(onNext: { _ in ticks.withLock { $0.append(scheduler.now.timeIntervalSince(Self.start)) } })
        scheduler.start()
        #expect(ticks.value == [60, 120, 180])
        subscription.dispose()
    }

    @Test func neverDueTimeIsNeverRun() {
        let scheduler = HistoricalScheduler(initialClock: Self.start)
        let ran = Locked(0)
        _ = scheduler.scheduleRelative((), dueTime: .never) { _ in
            ran.increment()
            return Disposables.create()
        }
        scheduler.advanceTo(Self.start.addingTimeInterval(1_000_000))
        #expect(ran.value == 0)
    }

    @Test func converterIsTheIdentityOnDatesAndSeconds() {
        let converter = HistoricalSchedulerTimeConverter()
        #expect(converter.convertFromVirtualTime(Self.start) == Self.start)
        #expect(converter.convertToVirtualTime(Self.start) == Self.start)
        #expect(converter.convertFromVirtualTimeInterval(2.5) == 2.5)
        #expect(converter.convertToVirtualTimeInterval(2.5) == 2.5)
        #expect(converter.offsetVirtualTime(Self.start, offset: 2) == Self.start.addingTimeInterval(2))
        #expect(converter.compareVirtualTime(Self.start, Self.start.addingTimeInterval(1)) == .lessThan)
        #expect(converter.compareVirtualTime(Self.start, Self.start) == .equal)
        #expect(converter.compareVirtualTime(Self.start.addingTimeInterval(1), Self.start) == .greaterThan)
    }
}
