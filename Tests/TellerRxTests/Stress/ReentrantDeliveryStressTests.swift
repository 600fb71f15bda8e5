import Synchronization
import TellerRx
import Testing

/// Real-thread tests of the multi-source operators that decide under a lock and deliver after
/// it (the flat-map family, `switchLatest`, `combineLatest`, `zip`): many threads send at once
/// while the observer sends back into the operator from inside `onNext`. The observer counts
/// how many deliveries are inside it at once: it must never be more than one, and each
/// source's elements must arrive in the order that source sent them. Run them under
/// ThreadSanitizer too.
@Suite struct ReentrantDeliveryStressTests {
    static let threads = 4
    static let perThread = 2_000
    /// Tags an element with its source: `source * tag + index`.
    static let tag = 1_000_000

    @Test func flatMapNeverOverlapsAndKeepsEachInnersOrderWhileItsObserverFeedsBack() {
        let inners = (0..<Self.threads).map { _ in PublishSubject<Int>() }
        let feedback = PublishSubject<Int>()
        let outer = PublishSubject<Observable<Int>>()
        let observer = EntryCountingObserver<Int> { value in
            // Every hundredth element of source 0 sends one more, from inside `onNext`.
            if value < Self.tag, value % 100 == 0 { feedback.onNext(Self.threads * Self.tag + value) }
        }
        let subscription = outer.flatMap { $0 }.subscribe(observer)
        for inner in inners { outer.onNext(inner.asObservable()) }
        outer.onNext(feedback.asObservable())
        concurrently(Self.threads) { index in
            for value in 0..<Self.perThread { inners[index].onNext(index * Self.tag + value) }
        }
        let elements = observer.elements
        #expect(observer.mostAtOnce == 1)
        #expect(elements.count == Self.threads * Self.perThread + Self.perThread / 100)
        for source in 0...Self.threads {
            let ofSource = elements.filter { $0 / Self.tag == source }
            #expect(ofSource == ofSource.sorted())
        }
        subscription.dispose()
    }

    @Test func flatMapLatestNeverOverlapsWhileItsObserverSwitchesFromInsideOnNext() {
        let inners = (0..<Self.threads).map { _ in PublishSubject<Int>() }
        let outer = PublishSubject<Int>()
        let observer = EntryCountingObserver<Int> { value in
            if value % 50 == 0 { outer.onNext((value / 50) % Self.threads) }
        }
        let subscription = outer.flatMapLatest { inners[$0] }.subscribe(observer)
        outer.onNext(0)
        concurrently(Self.threads) { index in
            for value in 0..<Self.perThread { inners[index].onNext(index * Self.tag + value) }
        }
        #expect(observer.mostAtOnce == 1)
        for source in 0..<Self.threads {
            let ofSource = observer.elements.filter { $0 / Self.tag == source }
            #expect(ofSource == ofSource.sorted())
        }
        subscription.dispose()
    }

    @Test func combineLatestNeverOverlapsAndKeepsEachSourcesOrderWhileItsObserverFeedsBack() {
        // The last source is sent to only from inside `onNext`, so only one thread at a time.
        let subjects = (0...Self.threads).map { _ in PublishSubject<Int>() }
        let feedback = subjects[Self.threads]
        let observer = EntryCountingObserver<[Int]> { latest in
            // Once per hundred elements of source 0 (twice at most, if the first is still queued).
            let hundreds = latest[0] / 100
            if latest[Self.threads] < hundreds { feedback.onNext(hundreds) }
        }
        let subscription = Observable.combineLatest(subjects).subscribe(observer)
        for subject in subjects { subject.onNext(0) }
        concurrently(Self.threads) { index in
            for value in 1...Self.perThread { subjects[index].onNext(value) }
        }
        let results = observer.elements
        #expect(observer.mostAtOnce == 1)
        for source in 0...Self.threads {
            let ofSource = results.map { $0[source] }
            #expect(ofSource == ofSource.sorted())
        }
        #expect(results.last?.prefix(Self.threads) == ArraySlice(Array(repeating: Self.perThread, count: Self.threads)))
        #expect(results.last?[Self.threads] == Self.perThread / 100)
        subscription.dispose()
    }

    @Test func zipNeverOverlapsAndPairsInOrderWhileItsObserverFeedsBack() {
        let left = PublishSubject<Int>()
        let middle = PublishSubject<Int>()
        // Sent to once before the threads start, then only from inside `onNext`: one more per
        // result, so each result lets the next one form.
        let right = PublishSubject<Int>()
        let observer = EntryCountingObserver<Int> { value in
            right.onNext(value + 1)
        }
        let subscription = Observable.zip(left, middle, right) { $0 == $1 && $1 == $2 ? $0 : -1 }
            .subscribe(observer)
        right.onNext(0)
        concurrently(2) { index in
            let subject = index == 0 ? left : middle
            for value in 0..<Self.perThread { subject.onNext(value) }
        }
        #expect(observer.mostAtOnce == 1)
        #expect(observer.elements == Array(0..<Self.perThread))
        subscription.dispose()
    }
}

/// Records what it receives and counts how many calls are inside it at once; `react` runs
/// inside the call, after recording, to send back into the operator under test.
private final class EntryCountingObserver<Element: Sendable>: ObserverType, @unchecked Sendable {
    // @unchecked: `received` is deliberately unsynchronized: the operator under test must
    // serialize calls to `on`, and ThreadSanitizer reports it if it does not.
    private let inside = Atomic<Int>(0)
    private let most = Atomic<Int>(0)
    private let react: @Sendable (Element) -> Void
    private var received: [Element] = []

    init(react: @escaping @Sendable (Element) -> Void) {
        self.react = react
    }

    func on(_ event: Event<Element>) {
        let now = inside.wrappingAdd(1, ordering: .sequentiallyConsistent).newValue
        most.max(now, ordering: .sequentiallyConsistent)
        if case .next(let element) = event {
            received.append(element)
            react(element)
        }
        inside.wrappingSubtract(1, ordering: .sequentiallyConsistent)
    }

    /// The most calls that were inside `on` at the same time.
    var mostAtOnce: Int {
        most.load(ordering: .sequentiallyConsistent)
    }

    /// What arrived; read only once every sending thread has returned.
    var elements: [Element] {
        received
    }
}
