import TellerTesting
import Testing

@_spi(TellerInternals) @testable import TellerRx

/// A subject's subscription names its subscriber by an id, not by reference: disposing it still
/// stops delivery at once (even of the terminal event in flight), never touches another
/// subscriber, and keeps nothing alive.
@Suite struct SubjectSubscriptionTests {
    @Test func subscriberDisposedFromInsideAnotherOnesCompletionDoesNotGetTheCompletion() {
        let subject = PublishSubject<Int>()
        let log = Locked<[String]>([])
        let second = DisposableSlot()
        _ = subject.subscribe(onCompleted: {
            log.withLock { $0.append("first completed") }
            second.dispose()
        })
        second.set(subject.subscribe(onCompleted: { log.withLock { $0.append("second completed") } }))
        subject.onCompleted()
        #expect(log.value == ["first completed"])
    }

    @Test func subscriberDisposedWhileACompletionIsQueuedGetsNeitherTheElementNorTheCompletion() {
        let subject = PublishSubject<Int>()
        let log = Locked<[String]>([])
        let second = DisposableSlot()
        _ = subject.subscribe(
            onNext: { value in
                log.withLock { $0.append("first \(value)") }
                // Queued behind this delivery, then the second subscriber goes.
                subject.onCompleted()
                second.dispose()
            },
            onCompleted: { log.withLock { $0.append("first completed") } }
        )
        second.set(
            subject.subscribe(
                onNext: { value in log.withLock { $0.append("second \(value)") } },
                onCompleted: { log.withLock { $0.append("second completed") } }
            )
        )
        subject.onNext(1)
        #expect(log.value == ["first 1", "first completed"])
    }

    @Test func disposingASubscriptionAgainLeavesSubscribersThatJoinedLaterSubscribed() {
        let subject = PublishSubject<Int>()
        let received = Locked<[Int]>([])
        let first = subject.subscribe(onNext: { _ in })
        first.dispose()
        let later = subject.subscribe(onNext: { value in received.append(value) })
        first.dispose()
        subject.onNext(1)
        #expect(received.value == [1])
        #expect(subject.hasObservers)
        later.dispose()
        #expect(!subject.hasObservers)
    }

    @Test func keptSubscriptionDoesNotKeepTheObserverAliveAfterTheSubjectCompletes() {
        let subject = PublishSubject<Int>()
        var token: Tracked? = Tracked(1)
        let weak = WeakBox(token)
        let subscription = subject.subscribe(onNext: { [token] _ in _ = token })
        token = nil
        #expect(weak.object != nil)
        subject.onCompleted()
        #expect(weak.object == nil)
        subscription.dispose()
    }

    @Test func keptSubscriptionDoesNotKeepTheObserverAliveAfterItIsDisposed() {
        let subject = BehaviorSubject(value: 0)
        var token: Tracked? = Tracked(1)
        let weak = WeakBox(token)
        let subscription = subject.subscribe(onNext: { [token] _ in _ = token })
        token = nil
        #expect(weak.object != nil)
        subscription.dispose()
        #expect(weak.object == nil)
        withExtendedLifetime(subscription) {}
    }
}
