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
        // Queued, and held by nothing else once sent; once released, its deinit sends another
        // element into the first source (not the second: a subject queues what is sent into it
        // while it delivers).
        first.onNext(DeinitProbe { first.onNext(DeinitProbe {}) })
        // Pairs it up with 1; then 2 pairs up the element its deinit sent.
        second.onNext(1)
        second.onNext(2)
        #expect(results.value == [1, 2])
        subscription.dispose()
    }
}
