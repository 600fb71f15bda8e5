import Foundation
@_spi(TellerInternals) import TellerRx
import Testing

/// An error only this suite sends, so its handler ignores unhandled errors of tests running in
/// parallel (the hooks are process-wide).
private struct HookError: Error, Equatable {
    let id = UUID()
}

/// Set while a test of this suite subscribes: the hooks are process-wide, and tests of other
/// suites running in parallel subscribe too, so a capture hook counts only its own test's calls.
private enum HookTestScope {
    @TaskLocal static var isCounting = false
}

/// Installs a default error handler that records this suite's errors, runs `body`, and puts
/// the previous hooks back.
private func withRecordingHandler(
    recordCallStack: Bool = false,
    _ body: (_ received: Locked<[(callStack: [String], error: HookError)]>) throws -> Void
) rethrows {
    let previousHandler = Hooks.defaultErrorHandler
    let previousCapture = Hooks.customCaptureSubscriptionCallstack
    let previousRecording = Hooks.recordCallStackOnError
    defer {
        Hooks.defaultErrorHandler = previousHandler
        Hooks.customCaptureSubscriptionCallstack = previousCapture
        Hooks.recordCallStackOnError = previousRecording
    }
    let received = Locked<[(callStack: [String], error: HookError)]>([])
    Hooks.defaultErrorHandler = { callStack, error in
        // Another suite's unhandled error goes where it would have gone without this suite.
        guard let error = error as? HookError else { return previousHandler(callStack, error) }
        received.withLock { $0.append((callStack, error)) }
    }
    Hooks.recordCallStackOnError = recordCallStack
    try body(received)
}

@Suite(.serialized) struct HooksTests {
    @Test func unhandledObservableErrorGoesToTheDefaultErrorHandler() {
        withRecordingHandler { received in
            let error = HookError()
            _ = Observable<Int>.error(error).subscribe(onNext: { _ in })
            _ = Observable<Int>.error(error).subscribe(onCompleted: {}, onDisposed: {})
            #expect(received.value.map(\.error) == [error, error])
            #expect(received.value.allSatisfy { $0.callStack.isEmpty })
        }
    }

    @Test func handledErrorDoesNotReachTheDefaultErrorHandler() {
        withRecordingHandler { received in
            let handled = Locked(0)
            _ = Observable<Int>.error(HookError()).subscribe(onError: { _ in handled.increment() })
            _ = Single<Int>.error(HookError()).subscribe(onFailure: { _ in handled.increment() })
            #expect(handled.value == 2)
            #expect(received.value.isEmpty)
        }
    }

    @Test func unhandledTraitErrorsGoToTheDefaultErrorHandler() {
        withRecordingHandler { received in
            let errors = [HookError(), HookError(), HookError()]
            _ = Single<Int>.error(errors[0]).subscribe(onSuccess: { _ in })
            _ = Maybe<Int>.error(errors[1]).subscribe(onSuccess: { _ in })
            _ = Completable.error(errors[2]).subscribe(onCompleted: {})
            #expect(received.value.map(\.error) == errors)
        }
    }

    @Test func recordedCallStackIsCapturedAtSubscriptionAndPassedWithTheError() {
        withRecordingHandler(recordCallStack: true) { received in
            let captures = Locked(0)
            Hooks.customCaptureSubscriptionCallstack = {
                guard HookTestScope.isCounting else { return [] }
                captures.increment()
                return ["frame \(captures.value)"]
            }
            let subject = PublishSubject<Int>()
            let error = HookError()
            let subscription = HookTestScope.$isCounting.withValue(true) {
                let subscription = subject.subscribe(onNext: { _ in })
                #expect(captures.value == 1)
                subject.onNext(1)
                subject.onError(error)
                return subscription
            }
            #expect(captures.value == 1)
            #expect(received.value.map(\.callStack) == [["frame 1"]])
            #expect(received.value.map(\.error) == [error])
            subscription.dispose()
        }
    }

    @Test func recordedCallStackReachesTheHandlerForTraitsToo() {
        withRecordingHandler(recordCallStack: true) { received in
            Hooks.customCaptureSubscriptionCallstack = { ["here"] }
            _ = Single<Int>.error(HookError()).subscribe(onSuccess: { _ in })
            _ = Completable.error(HookError()).subscribe()
            #expect(received.value.map(\.callStack) == [["here"], ["here"]])
        }
    }

    @Test func subscriptionsWithAnErrorHandlerCaptureNoCallStack() {
        withRecordingHandler(recordCallStack: true) { _ in
            let captures = Locked(0)
            Hooks.customCaptureSubscriptionCallstack = {
                if HookTestScope.isCounting { captures.increment() }
                return []
            }
            HookTestScope.$isCounting.withValue(true) {
                _ = Observable.just(1).subscribe(onNext: { _ in }, onError: { _ in })
            }
            #expect(captures.value == 0)
        }
    }

    @Test func callStackRecordingIsOffByDefaultAndTheDefaultCaptureReturnsFrames() {
        #expect(!Hooks.recordCallStackOnError)
        #if DEBUG
        #expect(!Hooks.customCaptureSubscriptionCallstack().isEmpty)
        #endif
    }
}
