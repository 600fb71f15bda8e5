import Dispatch
import Foundation
@_spi(TellerInternals) import TellerRx
import Testing

/// Operators that forward under their own lock (a timer and the source both deliver): an
/// observer that disposes the subscription from inside `onNext` does so while the operator
/// holds that lock. If the operator then disposed its source right there, a thread that holds
/// the source's teardown lock and sends into the operator would wait for the operator's lock
/// while the disposing thread waits for the teardown lock. Two real threads; the bounded waits
/// turn that deadlock into a failed expectation.
@Suite struct DisposeInsideLockedDeliveryTests {
    struct Case: Sendable, CustomStringConvertible {
        let description: String
        let build: @Sendable (Observable<Int>, any SchedulerType) -> Observable<Int>
        /// What the disposing thread sends into the source to get an element out.
        let trigger: @Sendable (AnyObserver<Int>) -> Void
        /// Whether the sender's element comes after the source completed (TellerRx reports it).
        var sendsAfterTheEnd = false
    }

    static let lateElement = "Observable.create sent an element after the sequence ended; it was dropped."

    static let cases: [Case] = [
        Case(description: "throttle", build: { $0.throttle(.seconds(100), scheduler: $1) }, trigger: { $0.onNext(1) }),
        Case(
            description: "buffer",
            build: { source, scheduler in
                source.buffer(timeSpan: .seconds(100), count: 1, scheduler: scheduler).map { $0[0] }
            },
            trigger: { $0.onNext(1) }
        ),
        Case(
            description: "take(for:)",
            build: { $0.take(for: .seconds(100), scheduler: $1) },
            trigger: { $0.onNext(1) }
        ),
        Case(
            description: "debounce",
            build: { $0.debounce(.seconds(100), scheduler: $1) },
            trigger: { observer in
                observer.onNext(1)
                observer.onCompleted()
            },
            sendsAfterTheEnd: true
        ),
    ]

    @Test(arguments: cases)
    func disposingFromInsideOnNextTearsDownAfterTheOperatorsLock(_ testCase: Case) {
        let capture = MisuseCapture(accepting: { $0 == Self.lateElement })
        capture.during { disposeInsideOnNext(testCase) }
        if testCase.sendsAfterTheEnd && MisuseCapture.isReporting {
            #expect(!capture.messages.isEmpty, "the element sent after the end was not reported")
        }
    }

    private func disposeInsideOnNext(_ testCase: Case) {
        let sources = TeardownLockedSources()
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "DisposeInsideLockedDeliveryTests")
        let observer = Locked<AnyObserver<Int>?>(nil)
        let source = Observable<Int>.create { subscriber in
            observer.withLock { $0 = subscriber }
            return sources.make().subscribe(subscriber)
        }
        let insideOnNext = DispatchSemaphore(value: 0)
        let senderHoldsTheLock = DispatchSemaphore(value: 0)
        let senderDone = DispatchSemaphore(value: 0)
        let disposerDone = DispatchSemaphore(value: 0)
        let subscription = SingleAssignmentDisposable()
        let received = Locked<[Int]>([])

        subscription.setDisposable(
            testCase.build(source, scheduler)
                .subscribe(onNext: { element in
                    received.append(element)
                    insideOnNext.signal()
                    _ = senderHoldsTheLock.waitOrTimeOut()
                    subscription.dispose()
                })
        )

        Thread {
            guard let sink = observer.value else { return }
            testCase.trigger(sink)
            disposerDone.signal()
        }
        .start()
        Thread {
            _ = insideOnNext.waitOrTimeOut()
            sources.teardownLock.withLock {
                senderHoldsTheLock.signal()
                observer.value?.onNext(2)
            }
            senderDone.signal()
        }
        .start()

        let disposerFinished = disposerDone.waitOrTimeOut()
        let senderFinished = senderDone.waitOrTimeOut()
        #expect(disposerFinished, "\(testCase) disposed its source under its lock")
        #expect(senderFinished, "the sender is stuck waiting for \(testCase)'s lock")
        guard disposerFinished && senderFinished else { return }
        #expect(received.value == [1])
        #expect(sources.liveSubscriptions == 0)
    }
}
