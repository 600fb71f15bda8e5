import Foundation

/// Process-wide hooks, as in RxSwift: what happens to an error nobody handles, and whether
/// subscriptions record where they were made so that report can say.
///
/// An error is unhandled when it reaches a `subscribe(onNext:onError:onCompleted:onDisposed:)`
/// without `onError`, a `Single`'s `subscribe(onSuccess:onFailure:onDisposed:)` without
/// `onFailure`, or a `Maybe`'s or `Completable`'s `subscribe` without `onError`. It then goes to
/// ``defaultErrorHandler``, on the thread that delivered it.
///
/// Setting the hooks is thread-safe; set them once, early (for example in a test's set-up).
///
/// ```swift
/// Hooks.recordCallStackOnError = true
/// Hooks.defaultErrorHandler = { callStack, error in
///     log("Unhandled \(error), subscribed at:\n\(callStack.joined(separator: "\n"))")
/// }
/// ```
public enum Hooks {
    /// Receives an unhandled error with the call stack of the subscription it ended (empty
    /// unless ``recordCallStackOnError`` was on when the subscription was made).
    public typealias DefaultErrorHandler = @Sendable (_ subscriptionCallStack: [String], _ error: any Error) -> Void

    /// Captures the current call stack, one frame per string.
    public typealias CustomCaptureSubscriptionCallstack = @Sendable () -> [String]

    private struct Handlers {
        var defaultErrorHandler: DefaultErrorHandler = Hooks.printUnhandledError
        var customCaptureSubscriptionCallstack: CustomCaptureSubscriptionCallstack = Hooks.captureCallStack
    }

    private static let handlers = LockedState(Handlers())
    private static let isRecordingCallStack = AtomicState(false)

    /// Called with every unhandled error, on the thread that delivered it. The default prints
    /// the error (and the subscription's call stack, if recorded) on standard error in debug
    /// builds and does nothing in release builds. Set it to log or to fail tests instead.
    public static var defaultErrorHandler: DefaultErrorHandler {
        get { handlers.withLock { $0.defaultErrorHandler } }
        set { handlers.withLock { $0.defaultErrorHandler = newValue } }
    }

    /// Captures the call stack when ``recordCallStackOnError`` is on; called on the subscribing
    /// thread, inside `subscribe`. The default returns `Thread.callStackSymbols` in debug builds
    /// and an empty array in release builds.
    public static var customCaptureSubscriptionCallstack: CustomCaptureSubscriptionCallstack {
        get { handlers.withLock { $0.customCaptureSubscriptionCallstack } }
        set { handlers.withLock { $0.customCaptureSubscriptionCallstack = newValue } }
    }

    /// Whether subscriptions without an error handler capture their call stack (with
    /// ``customCaptureSubscriptionCallstack``) when they are made, to pass to
    /// ``defaultErrorHandler``. Off by default: capturing a stack on every subscribe is slow.
    public static var recordCallStackOnError: Bool {
        get { isRecordingCallStack.isSet }
        set { isRecordingCallStack.store(newValue) }
    }

    /// `onError` itself when there is one; otherwise, if ``recordCallStackOnError`` is on, a
    /// handler that reports to ``defaultErrorHandler`` with the call stack captured now; `nil`
    /// otherwise (the subscriber reports with an empty stack).
    @usableFromInline
    static func recordingCallStack(
        unless onError: (@Sendable (any Error) -> Void)?
    ) -> (@Sendable (any Error) -> Void)? {
        guard onError == nil, recordCallStackOnError else { return onError }
        let callStack = customCaptureSubscriptionCallstack()
        return { error in defaultErrorHandler(callStack, error) }
    }

    /// Reports an unhandled error of a subscription that recorded no call stack.
    @usableFromInline
    static func reportUnhandledError(_ error: any Error) {
        defaultErrorHandler([], error)
    }

    private static let printUnhandledError: DefaultErrorHandler = { callStack, error in
        if callStack.isEmpty {
            reportMisuse("Unhandled error happened: \(error)")
        } else {
            reportMisuse(
                "Unhandled error happened: \(error)\nsubscription called from:\n\(callStack.joined(separator: "\n"))"
            )
        }
    }

    private static let captureCallStack: CustomCaptureSubscriptionCallstack = {
        #if DEBUG
        Thread.callStackSymbols
        #else
        []
        #endif
    }
}
