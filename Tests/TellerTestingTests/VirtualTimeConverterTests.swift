import Dispatch
import Foundation
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// A converter written the way RxSwift's `VirtualTimeConverterType` spells its members
/// (spans as `TimeInterval` seconds): it must drive a `VirtualTimeScheduler` unchanged.
private struct MinuteConverter: VirtualTimeConverterType {
    typealias VirtualTimeUnit = Int
    typealias VirtualTimeIntervalUnit = Int

    func convertFromVirtualTime(_ virtualTime: VirtualTimeUnit) -> RxTime {
        Date(timeIntervalSince1970: TimeInterval(virtualTime) * 60)
    }

    func convertToVirtualTime(_ time: RxTime) -> VirtualTimeUnit {
        Int(time.timeIntervalSince1970 / 60)
    }

    func convertFromVirtualTimeInterval(_ virtualTimeInterval: VirtualTimeIntervalUnit) -> TimeInterval {
        TimeInterval(virtualTimeInterval) * 60
    }

    func convertToVirtualTimeInterval(_ timeInterval: TimeInterval) -> VirtualTimeIntervalUnit {
        timeInterval.isFinite ? Int(timeInterval / 60) : .max
    }

    func offsetVirtualTime(_ time: VirtualTimeUnit, offset: VirtualTimeIntervalUnit) -> VirtualTimeUnit {
        time.addingReportingOverflow(offset).overflow ? .max : time + offset
    }

    func compareVirtualTime(_ lhs: VirtualTimeUnit, _ rhs: VirtualTimeUnit) -> VirtualTimeComparison {
        lhs < rhs ? .lessThan : (lhs == rhs ? .equal : .greaterThan)
    }
}

@Suite struct VirtualTimeConverterTests {
    @Test func customConverterWithRxSwiftSignaturesDrivesAVirtualTimeScheduler() {
        let scheduler = VirtualTimeScheduler(initialClock: 0, converter: MinuteConverter())
        let ranAt = Locked<[Int]>([])
        _ = scheduler.scheduleRelative((), dueTime: .seconds(180)) { _ in
            ranAt.withLock { $0.append(scheduler.clock) }
            return Disposables.create()
        }
        scheduler.start()
        #expect(ranAt.value == [3])
        #expect(scheduler.now == Date(timeIntervalSince1970: 180))
    }

    @Test func testSchedulerConvertsRealIntervalsToTicksWithItsResolution() {
        let scheduler = TestScheduler(initialClock: 0, resolution: 0.5, simulateProcessingDelay: false)
        let ranAt = Locked<[Int]>([])
        for interval in [DispatchTimeInterval.milliseconds(1500), .seconds(2), .microseconds(250_000)] {
            _ = scheduler.scheduleRelative((), dueTime: interval) { _ in
                ranAt.withLock { $0.append(scheduler.clock) }
                return Disposables.create()
            }
        }
        scheduler.start()
        #expect(ranAt.value == [1, 3, 4])
        #expect(scheduler.now == Date(timeIntervalSince1970: 2))
    }

    @Test func testSchedulerNeverRunsWorkDueNever() {
        let scheduler = TestScheduler(initialClock: 0)
        let ran = Locked(0)
        _ = scheduler.scheduleRelative((), dueTime: .never) { _ in
            ran.withLock { $0 += 1 }
            return Disposables.create()
        }
        scheduler.advanceTo(1_000_000)
        #expect(ran.value == 0)
    }
}
