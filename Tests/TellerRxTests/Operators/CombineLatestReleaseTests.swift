@_spi(TellerInternals) import TellerRx
import Testing

/// `combineLatest` keeps each source's latest element under its lock. The element a new one
/// replaces is released only once that lock is released: its deinit may run user code, here
/// code that sends back into the same `combineLatest`, which under the lock would deadlock (a
/// debug build's lock stops at once instead).
@Suite struct CombineLatestReleaseTests {
    @Test func combineLatestReleasesAReplacedElementOnlyOnceItsLockIsReleased() {
        let first = PublishSubject<DeinitProbe>()
        let second = PublishSubject<Int>()
        let results = Locked<[Int]>([])
        let subscription = Observable.combineLatest(first, second) { _, number in number }
            .subscribe(onNext: { results.append($0) })
        second.onNext(1)
        first.onNext(DeinitProbe { second.onNext(2) })
        // Replaces the first element, whose deinit sends 2 into the second source.
        first.onNext(DeinitProbe {})
        #expect(results.value == [1, 1, 2])
        subscription.dispose()
    }
}
