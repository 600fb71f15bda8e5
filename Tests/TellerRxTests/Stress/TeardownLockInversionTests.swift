import Dispatch
import Foundation
@_spi(TellerInternals) import TellerRx
import Testing

/// RxSwift issues #2703 (zip) and #2711 (merge): a multi-source operator that disposes its
/// sources while holding its own lock deadlocks against a thread that holds a source's
/// teardown lock and sends into the operator. Sending the terminal event under the lock does
/// too: the operators downstream dispose their upstream as soon as they get it (the collection
/// cases end with `map` for that reason).
///
/// Every source here takes one shared teardown lock when disposed. Each case runs two real
/// threads:
/// 1. the sender takes the teardown lock;
/// 2. the terminator fails the trigger; the operator sends the error downstream, and the
///    downstream observer signals;
/// 3. the sender, still holding the teardown lock, sends an element into every source
///    subscription (those already disposed drop it; at least one still reaches the operator).
///
/// An operator that holds its lock while it (or the chain downstream) disposes a source now
/// waits for the teardown lock while the sender waits for the operator's lock. The bounded
/// waits turn that deadlock into a failed expectation instead of a hung test run.
@Suite struct TeardownLockInversionTests {
    struct Case: Sendable, CustomStringConvertible {
        let description: String
        /// The operator under test, built from `sources` (which the sender feeds) and a trigger
        /// (which the terminator fails); returns it and the terminator's action.
        let build: @Sendable (TeardownLockedSources) -> (observable: Observable<Int>, terminate: @Sendable () -> Void)
    }

    static let cases: [Case] = [
        Case(description: "merge") { sources in
            let trigger = sources.trigger(of: Int.self)
            return (Observable.merge(trigger.observable, sources.make(), sources.make()), trigger.fail)
        },
        Case(description: "zip(collection)") { sources in
            let trigger = sources.trigger(of: Int.self)
            return (Observable.zip([trigger.observable, sources.make(), sources.make()]).map { $0[0] }, trigger.fail)
        },
        Case(description: "zip(_:_:_:)") { sources in
            let trigger = sources.trigger(of: Int.self)
            return (Observable.zip(trigger.observable, sources.make(), sources.make()) { a, _, _ in a }, trigger.fail)
        },
        Case(description: "combineLatest(collection)") { sources in
            let trigger = sources.trigger(of: Int.self)
            let combined = Observable.combineLatest([trigger.observable, sources.make(), sources.make()]).map { $0[0] }
            return (combined, trigger.fail)
        },
        Case(description: "combineLatest(_:_:_:)") { sources in
            let trigger = sources.trigger(of: Int.self)
            let combined = Observable.combineLatest(trigger.observable, sources.make(), sources.make()) { a, _, _ in a }
            return (combined, trigger.fail)
        },
        Case(description: "flatMap") { sources in
            let trigger = sources.trigger(of: Int.self)
            let inner = sources.make()
            return (trigger.observable.startWith(0, 1).flatMap { _ in inner }, trigger.fail)
        },
        Case(description: "merge(maxConcurrent:)") { sources in
            let trigger = sources.trigger(of: Int.self)
            let inner = sources.make()
            return (trigger.observable.startWith(0, 1).map { _ in inner }.merge(maxConcurrent: 2), trigger.fail)
        },
        Case(description: "concatMap") { sources in
            let trigger = sources.trigger(of: Int.self)
            let inner = sources.make()
            return (trigger.observable.startWith(0).concatMap { _ in inner }, trigger.fail)
        },
        Case(description: "flatMapLatest") { sources in
            let trigger = sources.trigger(of: Int.self)
            let inner = sources.make()
            return (trigger.observable.startWith(0).flatMapLatest { _ in inner }, trigger.fail)
        },
        Case(description: "switchLatest") { sources in
            let trigger = sources.trigger(of: Observable<Int>.self)
            return (trigger.observable.startWith(sources.make()).switchLatest(), trigger.fail)
        },
        Case(description: "amb") { sources in
            let trigger = sources.trigger(of: Int.self)
            return (trigger.observable.amb(sources.make()), trigger.fail)
        },
        Case(description: "withLatestFrom") { sources in
            let trigger = sources.trigger(of: Int.self)
            return (trigger.observable.withLatestFrom(sources.make()), trigger.fail)
        },
        Case(description: "take(until:)") { sources in
            let trigger = sources.trigger(of: Int.self)
            return (trigger.observable.take(until: sources.make()), trigger.fail)
        },
        Case(description: "sample") { sources in
            let trigger = sources.trigger(of: Int.self)
            return (trigger.observable.sample(sources.make()), trigger.fail)
        },
    ]

    @Test(arguments: cases)
    func terminatingDisposesTheSourcesOutsideTheOperatorsLock(_ testCase: Case) {
        let sources = TeardownLockedSources()
        let (observable, terminate) = testCase.build(sources)
        let insideOperator = DispatchSemaphore(value: 0)
        let senderHoldsTheLock = DispatchSemaphore(value: 0)
        let senderDone = DispatchSemaphore(value: 0)
        let terminatorDone = DispatchSemaphore(value: 0)
        let sawTheOperatorForward = Locked(false)

        let subscription = observable.subscribe { _ in
            // The error, on the terminating thread.
            insideOperator.signal()
        }

        Thread {
            sources.teardownLock.withLock {
                senderHoldsTheLock.signal()
                let forwarded = insideOperator.waitOrTimeOut()
                sawTheOperatorForward.withLock { $0 = forwarded }
                sources.sendToEverySubscription(1)
            }
            senderDone.signal()
        }
        .start()
        Thread {
            _ = senderHoldsTheLock.waitOrTimeOut()
            terminate()
            terminatorDone.signal()
        }
        .start()

        let senderFinished = senderDone.waitOrTimeOut()
        let terminatorFinished = terminatorDone.waitOrTimeOut()
        #expect(senderFinished, "the sender is stuck: \(testCase) disposed a source under its lock")
        #expect(terminatorFinished, "the terminating thread is stuck in \(testCase)'s teardown")
        #expect(sawTheOperatorForward.value, "\(testCase) disposed a source before forwarding the error")
        guard senderFinished && terminatorFinished else { return }  // Disposing would hang too.
        #expect(sources.liveSubscriptions == 0)
        subscription.dispose()
    }
}

/// Sources whose teardown takes one shared lock (as a replaying subject's unsubscribe takes the
/// lock it replays under), and whose subscriptions a test can feed from any thread.
final class TeardownLockedSources: Sendable {
    /// Failing it is what ends the operator under test; its teardown takes the lock too.
    struct Trigger<Element: Sendable>: Sendable {
        let observable: Observable<Element>
        let fail: @Sendable () -> Void
    }

    let teardownLock = Lock()
    private let observers = Locked<[AnyObserver<Int>]>([])
    private let live = Locked(0)

    /// Subscriptions made and not yet disposed.
    var liveSubscriptions: Int {
        live.value
    }

    /// A source that records the observer of each subscription for ``sendToEverySubscription(_:)``.
    func make() -> Observable<Int> {
        Observable.create { [self] observer in
            observers.withLock { $0.append(observer) }
            return lockingTeardown()
        }
    }

    /// A source that fails (on the calling thread) when `fail` is called.
    func trigger<Element: Sendable>(of _: Element.Type) -> Trigger<Element> {
        let observer = Locked<AnyObserver<Element>?>(nil)
        let observable = Observable<Element>.create { [self] subscriber in
            observer.withLock { $0 = subscriber }
            return lockingTeardown()
        }
        return Trigger(observable: observable) { observer.value?.onError(TestError(1)) }
    }

    /// Sends `element` to every subscription of every ``make()`` source.
    func sendToEverySubscription(_ element: Int) {
        for observer in observers.value {
            observer.onNext(element)
        }
    }

    private func lockingTeardown() -> any Disposable {
        live.increment()
        return Disposables.create { [self] in
            teardownLock.withLock {
                live.withLock { $0 -= 1 }
            }
        }
    }
}
