import Dispatch
import TellerRx
import Testing

/// A created single's outcome racing with disposal, from real threads: invariants only.
@Suite struct SingleRaceTests {
    @Test func outcomeRacingDisposeEndsEachSubscriptionExactlyOnce() {
        for _ in 0..<500 {
            let pending = PendingSingle()
            let successes = Locked(0)
            let ends = Locked(0)
            let subscription = pending.single.subscribe(
                onSuccess: { _ in successes.increment() },
                onDisposed: { ends.increment() }
            )
            DispatchQueue.concurrentPerform(iterations: 3) { index in
                if index == 2 {
                    subscription.dispose()
                } else {
                    pending.send(.success(index))
                }
            }
            #expect(successes.value <= 1)
            #expect(ends.value == 1)
            #expect(pending.log.events == ["cancelled"])
        }
    }

    @Test func rxObserverOutcomeRacingDisposeCancelsOnce() {
        for _ in 0..<500 {
            let pending = PendingSingle()
            let nexts = Locked(0)
            let subscription = pending.single.asObservable().subscribe(onNext: { _ in nexts.increment() })
            DispatchQueue.concurrentPerform(iterations: 3) { index in
                if index == 2 {
                    subscription.dispose()
                } else {
                    pending.send(.success(index))
                }
            }
            #expect(nexts.value <= 1)
            #expect(pending.log.events == ["cancelled"])
        }
    }
}
