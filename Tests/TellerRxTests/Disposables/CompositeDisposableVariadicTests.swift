import Dispatch
@_spi(TellerInternals) import TellerRx
import Testing

@Suite struct CompositeDisposableVariadicTests {
    @Test(arguments: [0, 1, 2, 3, 4, 5, 8])
    func disposablesCreateWithAnArrayDisposesEveryMemberOnce(count: Int) {
        let log = Locked<[Int]>([])
        let disposable = Disposables.create((0..<count).map { index in Disposables.create { log.append(index) } })
        #expect(!disposable.isDisposed)
        disposable.dispose()
        disposable.dispose()
        #expect(disposable.isDisposed)
        #expect(log.value.sorted() == Array(0..<count))
    }

    @Test func disposablesCreateWithFourOrMoreArgumentsDisposesThemAllInOrder() {
        let log = Locked<[Int]>([])
        let disposable = Disposables.create(
            Disposables.create { log.append(1) },
            Disposables.create { log.append(2) },
            Disposables.create { log.append(3) },
            Disposables.create { log.append(4) },
            Disposables.create { log.append(5) }
        )
        DispatchQueue.concurrentPerform(iterations: 8) { _ in disposable.dispose() }
        #expect(log.value == [1, 2, 3, 4, 5])
    }

    @Test func compositeInitWithFourOrMoreArgumentsCountsAndDisposesThem() {
        let log = Locked<[Int]>([])
        let composite = CompositeDisposable(
            Disposables.create { log.append(1) },
            Disposables.create { log.append(2) },
            Disposables.create { log.append(3) },
            Disposables.create { log.append(4) },
            Disposables.create { log.append(5) },
            Disposables.create { log.append(6) }
        )
        #expect(composite.count == 6)
        composite.dispose()
        #expect(composite.count == 0)
        #expect(composite.isDisposed)
        #expect(log.value == [1, 2, 3, 4, 5, 6])
    }

    @Test func compositeInitWithExactlyFourArgumentsUsesTheVariadicOverload() {
        let composite = CompositeDisposable(
            Disposables.create(),
            Disposables.create(),
            Disposables.create(),
            Disposables.create()
        )
        #expect(composite.count == 4)
    }
}
