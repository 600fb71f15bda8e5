import Dispatch
import TellerRx
import Testing

/// Real-thread tests for `window`: window timers fire on other threads while the source sends,
/// and every element must land in exactly one window, with deliveries never overlapping. Run
/// them under ThreadSanitizer too.
@Suite struct WindowStressTests {
    static let elements = 20_000

    @Test func everyElementLandsInExactlyOneWindowWhileTimersRace() {
        let source = PublishSubject<Int>()
        let observer = OverlapCheckingObserver<Int>()
        let windows = OverlapCheckingObserver<Int>()
        let timers = ConcurrentDispatchQueueScheduler(qos: .userInitiated)
        let windowed = source.window(timeSpan: .microseconds(50), count: 7, scheduler: timers).share()
        // The elements' observer first: `share` connects on the first subscription, and `window`
        // opens its first window then, which a later subscriber never sees.
        let subscription = windowed.merge().subscribe(observer)
        let counting = windowed.map { _ in 0 }.subscribe(windows)
        DispatchQueue.global().async {
            for value in 0..<Self.elements { source.onNext(value) }
            source.onCompleted()
        }
        #expect(observer.waitForTerminal())
        #expect(windows.waitForTerminal())
        #expect(observer.overlaps == 0)
        #expect(windows.overlaps == 0)
        #expect(observer.elements == Array(0..<Self.elements))
        #expect(windows.elements.count >= Self.elements / 7)
        subscription.dispose()
        counting.dispose()
    }

    @Test func groupsReceiveEveryElementOnceAcrossThreadsThatSubscribeToThem() {
        let source = PublishSubject<Int>()
        let observer = OverlapCheckingObserver<Int>()
        let subscription = source.groupBy { $0 % 5 }
            .flatMap { $0.observe(on: ConcurrentDispatchQueueScheduler(qos: .userInitiated)) }
            .subscribe(observer)
        DispatchQueue.global().async {
            for value in 0..<Self.elements { source.onNext(value) }
            source.onCompleted()
        }
        #expect(observer.waitForTerminal())
        #expect(observer.overlaps == 0)
        #expect(observer.elements.sorted() == Array(0..<Self.elements))
        subscription.dispose()
    }
}
