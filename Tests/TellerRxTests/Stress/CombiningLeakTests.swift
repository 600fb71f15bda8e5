import TellerRx
import Testing

/// Ignores every event; tests watch it through a weak reference.
private final class SilentObserver<Element>: ObserverType, @unchecked Sendable {
    // @unchecked: stateless.
    func on(_ event: Event<Element>) {}
}

/// Subscribes a fresh observer with `subscribe`, disposes if asked, lets everything go, and
/// returns whether the observer was freed. Operators keep their observer through their sink,
/// so a sink (or anything holding it) left alive by a cycle keeps the observer alive too.
/// Deterministic and unaffected by tests running in parallel, unlike a global counter.
private func releasesObserver<Element>(
    disposing: Bool,
    _ subscribe: (SilentObserver<Element>) -> any Disposable
) -> Bool {
    weak var watched: SilentObserver<Element>?
    do {
        let observer = SilentObserver<Element>()
        watched = observer
        let subscription = subscribe(observer)
        if disposing { subscription.dispose() }
    }
    return watched == nil
}

@Suite struct CombiningLeakTests {
    /// A source that never ends, for the "disposed while running" cases.
    private static let running = Observable<Int>.never()

    @Test func mergeFamilyReleasesEverythingAfterCompletionErrorAndDisposal() {
        #expect(releasesObserver(disposing: false) { Observable.merge(.just(1), .just(2)).subscribe($0) })
        #expect(
            releasesObserver(disposing: false) {
                Observable.merge(.just(1), Observable<Int>.error(TestError(1))).subscribe($0)
            }
        )
        #expect(releasesObserver(disposing: true) { Observable.merge(Self.running, .just(1)).subscribe($0) })
        #expect(
            releasesObserver(disposing: false) { Observable.of(1, 2).flatMap { Observable.just($0) }.subscribe($0) }
        )
        #expect(releasesObserver(disposing: true) { Observable.of(1, 2).flatMap { _ in Self.running }.subscribe($0) })
        #expect(
            releasesObserver(disposing: false) {
                Observable.of(1, 2).flatMap { _ -> Observable<Int> in throw TestError(2) }.subscribe($0)
            }
        )
        #expect(releasesObserver(disposing: true) { Observable.of(1, 2).concatMap { _ in Self.running }.subscribe($0) })
        #expect(
            releasesObserver(disposing: true) { Observable.of(1, 2).flatMapFirst { _ in Self.running }.subscribe($0) }
        )
    }

    @Test func switchFamilyReleasesEverythingAfterCompletionErrorAndDisposal() {
        #expect(
            releasesObserver(disposing: false) {
                Observable.of(1, 2).flatMapLatest { Observable.just($0) }.subscribe($0)
            }
        )
        #expect(
            releasesObserver(disposing: true) { Observable.of(1, 2).flatMapLatest { _ in Self.running }.subscribe($0) }
        )
        #expect(
            releasesObserver(disposing: false) {
                Observable.of(1).flatMapLatest { _ in Observable<Int>.error(TestError(1)) }.subscribe($0)
            }
        )
        #expect(releasesObserver(disposing: true) { Observable.just(Self.running).switchLatest().subscribe($0) })
    }

    @Test func concatReleasesEverythingAfterCompletionErrorAndDisposal() {
        #expect(releasesObserver(disposing: false) { Observable.concat(.just(1), .just(2)).subscribe($0) })
        #expect(
            releasesObserver(disposing: false) {
                Observable.concat(.just(1), Observable<Int>.error(TestError(1))).subscribe($0)
            }
        )
        #expect(releasesObserver(disposing: true) { Observable.just(1).concat(Self.running).subscribe($0) })
    }

    @Test func combineLatestAndZipReleaseEverythingAfterCompletionErrorAndDisposal() {
        #expect(
            releasesObserver(disposing: false) {
                Observable.combineLatest(Observable.just(1), Observable.just(2)) { $0 + $1 }.subscribe($0)
            }
        )
        #expect(
            releasesObserver(disposing: false) {
                Observable.combineLatest(Observable.just(1), Observable<Int>.error(TestError(1))) { $0 + $1 }.subscribe(
                    $0
                )
            }
        )
        #expect(
            releasesObserver(disposing: true) {
                Observable.combineLatest([Observable.just(1), Self.running]).subscribe($0)
            }
        )
        #expect(
            releasesObserver(disposing: false) {
                Observable.zip(Observable.just(1), Observable.just(2)) { $0 + $1 }.subscribe($0)
            }
        )
        #expect(releasesObserver(disposing: true) { Observable.zip([Observable.just(1), Self.running]).subscribe($0) })
        #expect(
            releasesObserver(disposing: false) {
                Observable.zip(Observable.just(1), Observable<Int>.error(TestError(1))) { $0 + $1 }.subscribe($0)
            }
        )
    }

    @Test func withLatestFromAndAmbReleaseEverythingAfterCompletionErrorAndDisposal() {
        #expect(
            releasesObserver(disposing: false) { Observable.of(1, 2).withLatestFrom(Observable.just(3)).subscribe($0) }
        )
        #expect(releasesObserver(disposing: true) { Self.running.withLatestFrom(Self.running).subscribe($0) })
        #expect(
            releasesObserver(disposing: false) {
                Self.running.withLatestFrom(Observable<Int>.error(TestError(1))).subscribe($0)
            }
        )
        #expect(releasesObserver(disposing: false) { Observable.just(1).amb(Self.running).subscribe($0) })
        #expect(releasesObserver(disposing: true) { Self.running.amb(Self.running).subscribe($0) })
        #expect(releasesObserver(disposing: true) { Observable.amb([Self.running, Self.running]).subscribe($0) })
    }
}
