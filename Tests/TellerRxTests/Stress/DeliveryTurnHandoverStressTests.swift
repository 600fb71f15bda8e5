import Synchronization
import TellerRx
import Testing

/// Real-thread tests of the moment a locked sink's delivery turn changes hands: one thread
/// frees the turn (without the lock) just as another, under the lock, finds it held and queues
/// its event. Whichever wins, the queued event must be delivered, by the holder or by the
/// thread that queued it; a lost one shows as a missing element or a completion that never
/// comes. Many short rounds whose two threads start together, so they meet at the start and at
/// the end of a turn again and again. Run them under ThreadSanitizer too.
@Suite struct DeliveryTurnHandoverStressTests {
    static let rounds = 400
    static let perThread = 100

    @Test func mergeDeliversEveryEventWhenTwoThreadsSendAndCompleteAtOnce() {
        for _ in 0..<Self.rounds {
            let subjects = [PublishSubject<Int>(), PublishSubject<Int>()]
            let observer = OverlapCheckingObserver<Int>()
            let subscription = Observable.merge(subjects.map { $0.asObservable() }).subscribe(observer)
            let start = StartLine(threads: 2)
            concurrently(2) { index in
                start.arriveAndWait()
                for value in 0..<Self.perThread { subjects[index].onNext(value) }
                subjects[index].onCompleted()
            }
            #expect(observer.waitForTerminal())
            #expect(observer.overlaps == 0)
            #expect(observer.elements.count == 2 * Self.perThread)
            #expect(observer.terminalEvent?.isCompleted == true)
            subscription.dispose()
        }
    }

    @Test func combineLatestDeliversTheLastPairWhenTwoThreadsSendAndCompleteAtOnce() {
        for _ in 0..<Self.rounds {
            let first = BehaviorSubject(value: 0)
            let second = BehaviorSubject(value: 0)
            let observer = OverlapCheckingObserver<Int>()
            let subscription = Observable.combineLatest(first, second) { $0 + $1 }.subscribe(observer)
            let start = StartLine(threads: 2)
            concurrently(2) { index in
                let subject = index == 0 ? first : second
                start.arriveAndWait()
                for value in 1...Self.perThread { subject.onNext(value) }
                subject.onCompleted()
            }
            #expect(observer.waitForTerminal())
            #expect(observer.overlaps == 0)
            #expect(observer.elements.last == 2 * Self.perThread)
            #expect(observer.terminalEvent?.isCompleted == true)
            subscription.dispose()
        }
    }
}

/// Holds each arriving thread for a while until all have arrived, so that they then send at
/// about the same time. Only a head start for the race, not a synchronization the assertions
/// rely on: it gives up after a bounded spin, since Dispatch may run both iterations on one
/// thread, one after the other.
private final class StartLine: Sendable {
    private static let patience = 100_000
    private let threads: Int
    private let arrived = Atomic<Int>(0)

    init(threads: Int) {
        self.threads = threads
    }

    func arriveAndWait() {
        arrived.wrappingAdd(1, ordering: .acquiringAndReleasing)
        var spins = 0
        while arrived.load(ordering: .acquiring) < threads && spins < Self.patience {
            spins += 1
        }
    }
}
