@_spi(TellerInternals) import TellerRx
import Testing

/// `zip` keeps each source's elements in a queue under its lock. The elements a result pairs
/// up are released only once that lock is released: their deinit may run user code, here code
/// that sends back into the same `zip`, which under the lock would deadlock (a debug build's
/// lock stops at once instead).
@Suite struct ZipReleaseTests {
    @Test func zipReleasesPairedElementsOnlyOnceItsLockIsReleased() {
        let first = PublishSubject<DeinitProbe>()
        let second = PublishSubject<Int>()
        let results = Locked<[Int]>([])
        let subscription = Observable.zip(first, second) { _, number in number }
            .subscribe(onNext: { results.append($0) })
        // Queued, and held by nothing else once sent; once released, its deinit sends 2 into
        // the second source.
        first.onNext(DeinitProbe { second.onNext(2) })
        // Pairs it up with 1.
        second.onNext(1)
        first.onNext(DeinitProbe {})
        #expect(results.value == [1, 2])
        subscription.dispose()
    }
}
