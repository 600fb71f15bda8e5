@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

@Suite struct GenerateTests {
    @Test func sendsStatesWhileTheConditionHolds() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Observable.generate(initialState: 0, condition: { $0 <= 2 }, scheduler: scheduler, iterate: { $0 + 1 })
        }
        #expect(res.events == [.next(201, 0), .next(202, 1), .next(203, 2), .completed(204)])
    }

    @Test func initialStateFailingTheConditionOnlyCompletes() {
        let events = synchronousEvents(
            Observable.generate(initialState: 10, condition: { $0 < 5 }, iterate: { $0 + 1 })
        )
        #expect(events == [.completed])
    }

    @Test func runsOnTheCurrentThreadByDefault() {
        let events = synchronousEvents(
            Observable.generate(initialState: 1, condition: { $0 < 10 }, iterate: { $0 * 2 })
        )
        #expect(events == [.next(1), .next(2), .next(4), .next(8), .completed])
    }

    @Test func errorThrownByConditionIsSent() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Observable.generate(
                initialState: 0,
                condition: { value in
                    if value == 1 { throw TestError(1) }
                    return true
                },
                scheduler: scheduler,
                iterate: { $0 + 1 }
            )
        }
        #expect(res.events == [.next(201, 0), .error(202, TestError(1))])
    }

    @Test func errorThrownByIterateIsSentInTheNextStep() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Observable.generate(
                initialState: 0,
                condition: { _ in true },
                scheduler: scheduler,
                iterate: { _ -> Int in throw TestError(2) }
            )
        }
        #expect(res.events == [.next(201, 0), .error(202, TestError(2))])
    }

    @Test func disposingEarlyStopsTheLoop() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start(disposed: 203) {
            Observable.generate(initialState: 0, condition: { _ in true }, scheduler: scheduler, iterate: { $0 + 1 })
        }
        #expect(res.events == [.next(201, 0), .next(202, 1)])
    }

    @Test func takeStopsAnInfiniteLoopBeforeAnotherIterate() {
        let iterations = Locked(0)
        let events = synchronousEvents(
            Observable.generate(initialState: 0, condition: { _ in true }) { value in
                iterations.increment()
                return value + 1
            }
            .take(3)
        )
        #expect(events == [.next(0), .next(1), .next(2), .completed])
        #expect(iterations.value == 2)
    }
}
