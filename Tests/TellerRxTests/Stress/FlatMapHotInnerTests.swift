import Dispatch
import Synchronization
import TellerRx
import Testing

/// `flatMap` subscribes an inner sequence before the outer `onNext` returns, as RxSwift does, even
/// while another thread is inside the operator delivering an element. A hot inner sequence (a
/// `groupBy` group, a subject) starts sending as soon as the source thread moves on: subscribed
/// any later, its first elements would be lost.
@Suite struct FlatMapHotInnerTests {
    @Test func aHotInnerSequenceLosesNothingWhenItArrivesWhileAnotherThreadDelivers() {
        let outer = PublishSubject<PublishSubject<Int>>()
        let first = PublishSubject<Int>()
        let second = PublishSubject<Int>()
        let delivering = DispatchSemaphore(value: 0)
        let sourceMovedOn = DispatchSemaphore(value: 0)
        let received = Mutex<[Int]>([])
        let subscription = outer.flatMap { $0 }
            .subscribe(onNext: { value in
                received.withLock { $0.append(value) }
                guard value == 1 else { return }
                delivering.signal()
                // Inside the operator on another thread. A correct `flatMap` holds the source
                // thread in `onNext` meanwhile, so this wait only ends by its deadline; one that
                // let the source thread go on would be told so at once.
                _ = sourceMovedOn.wait(timeout: .now() + .milliseconds(200))
            })
        outer.onNext(first)
        let other = DispatchGroup()
        DispatchQueue.global().async(group: other) { first.onNext(1) }
        delivering.wait()
        outer.onNext(second)
        sourceMovedOn.signal()
        second.onNext(2)
        other.wait()
        #expect(received.withLock { $0.sorted() } == [1, 2])
        subscription.dispose()
    }
}
