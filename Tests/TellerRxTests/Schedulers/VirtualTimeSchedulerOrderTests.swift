@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

/// The virtual time scheduler's queue (a heap): items run by due time, and items due at the
/// same time in the order they were scheduled, however many there are.
@Suite struct VirtualTimeSchedulerOrderTests {
    @Test func aHundredThousandItemsRunByDueTimeAndEqualTimesInSchedulingOrder() {
        let scheduler = TestScheduler(initialClock: 0)
        let count = 100_000
        // Due times 0…999 in a scrambled order, a hundred items at each.
        let dueTimes = (0..<count).map { ($0 * 7_919) % 1_000 }
        let ran = Locked<[(time: Int, index: Int)]>([])
        ran.withLock { $0.reserveCapacity(count) }
        for (index, dueTime) in dueTimes.enumerated() {
            _ = scheduler.scheduleAbsoluteVirtual((), time: dueTime) { _ in
                ran.withLock { $0.append((scheduler.clock, index)) }
                return Disposables.create()
            }
        }
        scheduler.start()
        let order = ran.value
        let expected = dueTimes.enumerated().sorted { ($0.element, $0.offset) < ($1.element, $1.offset) }
        #expect(order.count == count)
        #expect(order.map(\.index) == expected.map(\.offset))
        #expect(order.map(\.time) == expected.map(\.element))
    }

    @Test func aDisposedItemIsSkipped() {
        let scheduler = TestScheduler(initialClock: 0)
        let ran = Locked<[Int]>([])
        for time in [30, 10, 20] {
            let work = scheduler.scheduleAbsoluteVirtual((), time: time) { _ in
                ran.append(time)
                return Disposables.create()
            }
            if time == 20 { work.dispose() }
        }
        scheduler.start()
        #expect(ran.value == [10, 30])
    }
}
