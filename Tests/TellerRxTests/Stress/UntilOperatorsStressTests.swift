import Dispatch
import Synchronization
@_spi(TellerInternals) import TellerRx
import Testing

/// `take(until:)` and `skip(until:)` forward from two sources that may run on different
/// threads; these races check that downstream still sees the Rx contract.
@Suite struct UntilOperatorsStressTests {
    private static let rounds = 200
    private static let elements = 500

    @Test func takeUntilKeepsTheContractWhenOtherFiresDuringSourceElements() {
        for _ in 0..<Self.rounds {
            let source = PublishSubject<Int>()
            let other = PublishSubject<Void>()
            let observer = ContractObserver<Int>()
            let subscription = source.take(until: other).subscribe(observer)
            let started = Atomic<Bool>(false)
            DispatchQueue.concurrentPerform(iterations: 2) { lane in
                if lane == 0 {
                    started.store(true, ordering: .releasing)
                    for value in 0..<Self.elements { source.onNext(value) }
                    source.onCompleted()
                } else {
                    // Fire while the source is mid-stream, so the two really race.
                    while !started.load(ordering: .acquiring) {}
                    other.onNext(())
                }
            }
            let state = observer.state.value
            #expect(state.violations == [])
            #expect(state.terminals == 1)
            subscription.dispose()
        }
    }

    @Test func skipUntilKeepsTheContractWhenBothSourcesFail() {
        for _ in 0..<Self.rounds {
            let source = PublishSubject<Int>()
            let other = PublishSubject<Void>()
            let observer = ContractObserver<Int>()
            let subscription = source.skip(until: other).subscribe(observer)
            let started = Atomic<Bool>(false)
            DispatchQueue.concurrentPerform(iterations: 2) { lane in
                if lane == 0 {
                    started.store(true, ordering: .releasing)
                    for value in 0..<Self.elements { source.onNext(value) }
                    source.onError(TestError(1))
                } else {
                    while !started.load(ordering: .acquiring) {}
                    other.onError(TestError(2))
                }
            }
            let state = observer.state.value
            #expect(state.violations == [])
            #expect(state.terminals == 1)
            #expect(state.elements == 0)
            subscription.dispose()
        }
    }

    @Test func skipUntilKeepsTheContractWhenTheGateOpensDuringSourceElements() {
        for _ in 0..<Self.rounds {
            let source = PublishSubject<Int>()
            let other = PublishSubject<Void>()
            let observer = ContractObserver<Int>()
            let subscription = source.skip(until: other).subscribe(observer)
            let started = Atomic<Bool>(false)
            DispatchQueue.concurrentPerform(iterations: 2) { lane in
                if lane == 0 {
                    started.store(true, ordering: .releasing)
                    for value in 0..<Self.elements { source.onNext(value) }
                    source.onError(TestError(1))
                } else {
                    while !started.load(ordering: .acquiring) {}
                    other.onNext(())
                    other.onError(TestError(2))
                }
            }
            let state = observer.state.value
            #expect(state.violations == [])
            #expect(state.terminals == 1)
            subscription.dispose()
        }
    }
}
