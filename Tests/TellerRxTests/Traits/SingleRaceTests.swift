import Dispatch
@_spi(TellerInternals) import TellerRx
import Testing

/// A created single's outcome racing with disposal, from real threads: invariants only.
@Suite struct SingleRaceTests {
    static let rounds = 500

    /// Both outcomes are sent every round, so every round reports the one that came second.
    static func capturingSecondOutcomes() -> MisuseCapture {
        let reports = (0...1).map { "Single.create sent success(\($0)) after the Single ended; it was dropped." }
        return MisuseCapture(accepting: { reports.contains($0) })
    }

    @Test func outcomeRacingDisposeEndsEachSubscriptionExactlyOnce() {
        let secondOutcomes = Self.capturingSecondOutcomes()
        secondOutcomes.during {
            for _ in 0..<Self.rounds { outcomeRacingDisposeEndsTheSubscriptionOnce() }
        }
        // At least: a test running alongside may send a second success(0) or success(1) too.
        #expect(secondOutcomes.messages.count >= (MisuseCapture.isReporting ? Self.rounds : 0))
    }

    @Test func rxObserverOutcomeRacingDisposeCancelsOnce() {
        let secondOutcomes = Self.capturingSecondOutcomes()
        secondOutcomes.during {
            for _ in 0..<Self.rounds { rxObserverOutcomeRacingDisposeCancelsItsSingle() }
        }
        #expect(secondOutcomes.messages.count >= (MisuseCapture.isReporting ? Self.rounds : 0))
    }

    private func outcomeRacingDisposeEndsTheSubscriptionOnce() {
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

    private func rxObserverOutcomeRacingDisposeCancelsItsSingle() {
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
