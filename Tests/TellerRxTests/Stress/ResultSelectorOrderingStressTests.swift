import Synchronization
import TellerRx
import Testing

/// Real-thread tests of result selectors run outside the lock: `zip` and `combineLatest`
/// decide each result under their lock but make it afterwards, in the delivery turn. With
/// sources sending on two threads at once, the selector must never run twice at the same time
/// and the results must arrive in the order they were decided, every one of them. Many short
/// rounds; run them under ThreadSanitizer too.
@Suite struct ResultSelectorOrderingStressTests {
    static let rounds = 200
    static let perThread = 200

    @Test func zipMakesAndDeliversEveryResultInOrderWhenSourcesSendOnTwoThreads() {
        for _ in 0..<Self.rounds {
            let subjects = [PublishSubject<Int>(), PublishSubject<Int>()]
            let selector = OverlapCounter()
            let observer = OverlapCheckingObserver<Int>()
            let subscription = Observable.zip(subjects[0], subjects[1]) { left, right in
                selector.enter()
                defer { selector.leave() }
                return left == right ? left : -1
            }
            .subscribe(observer)
            concurrently(2) { index in
                for value in 0..<Self.perThread { subjects[index].onNext(value) }
                subjects[index].onCompleted()
            }
            #expect(observer.waitForTerminal())
            #expect(observer.overlaps == 0)
            #expect(selector.overlaps == 0)
            #expect(observer.elements == Array(0..<Self.perThread))
            #expect(observer.terminalEvent?.isCompleted == true)
            subscription.dispose()
        }
    }

    @Test func combineLatestMakesAndDeliversResultsInTheOrderDecidedWhenSourcesSendOnTwoThreads() {
        for _ in 0..<Self.rounds {
            let first = BehaviorSubject(value: 0)
            let second = BehaviorSubject(value: 0)
            let selector = OverlapCounter()
            let observer = OverlapCheckingObserver<[Int]>()
            let subscription = Observable.combineLatest(first, second) { left, right in
                selector.enter()
                defer { selector.leave() }
                return [left, right]
            }
            .subscribe(observer)
            concurrently(2) { index in
                let subject = index == 0 ? first : second
                for value in 1...Self.perThread { subject.onNext(value) }
                subject.onCompleted()
            }
            #expect(observer.waitForTerminal())
            #expect(observer.overlaps == 0)
            #expect(selector.overlaps == 0)
            let results = observer.elements
            // One result per element, each a step of one source: in the order decided, every
            // result moves exactly one source on by one.
            #expect(results.count == 1 + 2 * Self.perThread)
            #expect(results.first == [0, 0])
            #expect(zip(results, results.dropFirst()).allSatisfy { $1[0] + $1[1] == $0[0] + $0[1] + 1 })
            #expect(results.last == [Self.perThread, Self.perThread])
            #expect(observer.terminalEvent?.isCompleted == true)
            subscription.dispose()
        }
    }
}

/// Counts the times a closure was entered while another call of it was still running.
private final class OverlapCounter: Sendable {
    private let inside = Atomic<Bool>(false)
    private let overlapCount = Atomic<Int>(0)

    func enter() {
        if inside.exchange(true, ordering: .acquiringAndReleasing) {
            overlapCount.wrappingAdd(1, ordering: .relaxed)
        }
    }

    func leave() {
        inside.store(false, ordering: .releasing)
    }

    var overlaps: Int {
        overlapCount.load(ordering: .acquiring)
    }
}
