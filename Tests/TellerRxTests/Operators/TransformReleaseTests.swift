@_spi(TellerInternals) import TellerRx
import Testing

/// A finished subscription must free its chain even while the caller still holds the
/// disposable: these capture a token in the observer and check that it was freed.
@Suite struct TransformReleaseTests {
    @Test func takeFreesTheChainWhenItCompletesEarly() {
        let source = ManualSource<Int>()
        #expect(
            tokenIsReleased { token in
                let subscription = source.observable.take(1).subscribe(onNext: { _ in _ = token })
                source.onNext(1)
                return subscription
            }
        )
    }

    @Test func takeUntilFreesBothSubscriptionsWhenOtherFires() {
        let source = ManualSource<Int>()
        let other = ManualSource<String>()
        #expect(
            tokenIsReleased { token in
                let subscription = source.observable.take(until: other.observable).subscribe(onNext: { _ in _ = token })
                other.onNext("stop")
                return subscription
            }
        )
        #expect(source.disposeCount.value == 1)
    }

    @Test func takeUntilFreesOtherWhenTheSourceCompletes() {
        let source = ManualSource<Int>()
        let other = ManualSource<String>()
        #expect(
            tokenIsReleased { token in
                let subscription = source.observable.take(until: other.observable).subscribe(onNext: { _ in _ = token })
                source.send(.completed)
                return subscription
            }
        )
        #expect(other.disposeCount.value == 1)
    }

    @Test func skipUntilFreesBothSubscriptionsWhenTheSourceCompletes() {
        let source = ManualSource<Int>()
        let other = ManualSource<String>()
        #expect(
            tokenIsReleased { token in
                let subscription = source.observable.skip(until: other.observable).subscribe(onNext: { _ in _ = token })
                source.send(.completed)
                return subscription
            }
        )
        #expect(other.disposeCount.value == 1)
    }

    @Test func throwingClosureFreesTheChain() {
        let source = ManualSource<Int>()
        #expect(
            tokenIsReleased { token in
                let subscription = source.observable
                    .scan(0) { _, _ in throw TestError(1) }
                    .subscribe(onNext: { _ in _ = token }, onError: { _ in _ = token })
                source.onNext(1)
                return subscription
            }
        )
    }

    @Test func repeatElementWithTakeFreesTheChain() {
        #expect(
            tokenIsReleased { token in
                Observable.repeatElement(1).take(2).subscribe(onNext: { _ in _ = token })
            }
        )
    }

    @Test func stillSubscribedChainIsNotFreed() {
        // The check itself must be able to fail.
        let source = ManualSource<Int>()
        #expect(
            !tokenIsReleased { token in
                source.observable.take(2).subscribe(onNext: { _ in _ = token })
            }
        )
    }
}
