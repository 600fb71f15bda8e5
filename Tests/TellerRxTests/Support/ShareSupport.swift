import Synchronization
@_spi(TellerInternals) import TellerRx
import TellerTesting

/// Holds a subscription made inside scheduled work so later work can dispose it.
final class SubscriptionSlot: Sendable {
    private let stored = Locked<(any Disposable)?>(nil)

    func set(_ disposable: any Disposable) {
        stored.withLock { $0 = disposable }
    }

    func dispose() {
        stored.withLock { $0 }?.dispose()
    }
}

extension TestScheduler {
    /// Subscribes `observer` to `observable` at `subscribeAt` and, if given, disposes that
    /// subscription at `disposeAt`.
    func subscribe<Element: Sendable>(
        _ observable: Observable<Element>,
        _ observer: TestableObserver<Element>,
        at subscribeAt: TestTime,
        disposeAt: TestTime? = nil
    ) {
        let slot = SubscriptionSlot()
        scheduleAt(subscribeAt) { slot.set(observable.subscribe(observer)) }
        if let disposeAt {
            scheduleAt(disposeAt) { slot.dispose() }
        }
    }
}

/// A cold source built with `create` that counts its live subscriptions, for checking that a
/// shared source is subscribed at most once at a time.
final class CountingSource: Sendable {
    private let live = Atomic<Int>(0)
    private let maxLive = Atomic<Int>(0)
    private let subscribeCount = Atomic<Int>(0)
    private let disposeCount = Atomic<Int>(0)
    private let spin = Atomic<Int>(0)

    /// Never emits; counts subscriptions and disposals.
    var observable: Observable<Int> {
        Observable.create { [self] _ in
            subscribeCount.wrappingAdd(1, ordering: .relaxed)
            let now = live.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue
            var seen = maxLive.load(ordering: .relaxed)
            while now > seen {
                let (exchanged, original) = maxLive.compareExchange(
                    expected: seen,
                    desired: now,
                    ordering: .relaxed
                )
                if exchanged { break }
                seen = original
            }
            return Disposables.create { [self] in
                // Stay live a little while, so a second subscription racing this disposal
                // would overlap it and show in `mostLiveAtOnce`.
                for _ in 0..<2_000 { spin.wrappingAdd(1, ordering: .relaxed) }
                live.wrappingSubtract(1, ordering: .acquiringAndReleasing)
                disposeCount.wrappingAdd(1, ordering: .relaxed)
            }
        }
    }

    var liveSubscriptions: Int { live.load(ordering: .acquiring) }
    var mostLiveAtOnce: Int { maxLive.load(ordering: .relaxed) }
    var subscriptions: Int { subscribeCount.load(ordering: .relaxed) }
    var disposals: Int { disposeCount.load(ordering: .relaxed) }
}

/// Records the events it receives and notes any two deliveries that overlapped in time.
final class RecordingObserver<Element: Sendable>: ObserverType, Sendable {
    private let inside = Atomic<Bool>(false)
    private let overlapCount = Atomic<Int>(0)
    private let recorded = Locked<[Event<Element>]>([])

    func on(_ event: Event<Element>) {
        if inside.exchange(true, ordering: .acquiringAndReleasing) {
            overlapCount.wrappingAdd(1, ordering: .relaxed)
        }
        recorded.withLock { $0.append(event) }
        inside.store(false, ordering: .releasing)
    }

    var events: [Event<Element>] { recorded.value }
    var elements: [Element] { events.compactMap(\.element) }
    var overlaps: Int { overlapCount.load(ordering: .relaxed) }
}

/// Runs `body` up to five times and returns the fewest TellerRx resources it left alive: a
/// real leak shows every time, allocations by suites running in parallel do not.
func fewestResourcesLeaked(by body: () -> Void) -> Int {
    var fewest = Int.max
    for _ in 0..<5 {
        fewest = min(fewest, resourcesLeaked(by: body))
        if fewest == 0 { break }
    }
    return fewest
}
