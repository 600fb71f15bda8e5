import Foundation
import Synchronization
@_spi(TellerInternals) import TellerRx

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An observer for subject tests: records every event, counts overlapping deliveries (two
/// `on` calls at once, which a subject must never do), can run a reaction inside `on`, and
/// counts events delivered on the thread that disposed it after that dispose returned.
final class EventRecorder<Element: Sendable>: ObserverType, @unchecked Sendable {
    // @unchecked: `state` is locked; the rest is atomic or immutable.
    private struct State {
        var recorded: [Event<Element>] = []
        var disposer: pthread_t?
        var lateDeliveries = 0
    }

    private let state = LockedState(State())
    private let inside = Atomic<Bool>(false)
    private let overlapCount = Atomic<Int>(0)
    private let reaction: (@Sendable (Event<Element>) -> Void)?

    /// - Parameter reaction: Runs inside `on`, after the event was recorded.
    init(_ reaction: (@Sendable (Event<Element>) -> Void)? = nil) {
        self.reaction = reaction
    }

    func on(_ event: Event<Element>) {
        if inside.exchange(true, ordering: .acquiringAndReleasing) {
            overlapCount.wrappingAdd(1, ordering: .relaxed)
        }
        state.withLock { state in
            state.recorded.append(event)
            if let disposer = state.disposer, pthread_equal(disposer, pthread_self()) != 0 {
                state.lateDeliveries += 1
            }
        }
        reaction?(event)
        inside.store(false, ordering: .releasing)
    }

    /// Disposes `subscription`, then remembers this thread: anything delivered on it from now
    /// on counts as a late delivery.
    func dispose(_ subscription: any Disposable) {
        subscription.dispose()
        state.withLock { $0.disposer = pthread_self() }
    }

    var events: [Event<Element>] {
        state.withLock { $0.recorded }
    }

    var elements: [Element] {
        events.compactMap(\.element)
    }

    /// How many times `on` was entered while another `on` call was still running.
    var overlaps: Int {
        overlapCount.load(ordering: .relaxed)
    }

    /// Events delivered on the disposing thread after `dispose(_:)` returned there.
    var deliveredAfterDispose: Int {
        state.withLock { $0.lateDeliveries }
    }
}

/// A slot for a disposable created later inside a `@Sendable` closure.
final class DisposableSlot: Sendable {
    private let value = LockedState<(any Disposable)?>(nil)

    func set(_ disposable: any Disposable) {
        value.withLock { $0 = disposable }
    }

    func dispose() {
        value.value?.dispose()
    }
}

/// Holds a weak reference, to check that a subject let go of an observer.
final class WeakBox<Object: AnyObject>: @unchecked Sendable {
    // @unchecked: tests read it only after the code under test has finished.
    weak var object: Object?

    init(_ object: Object?) {
        self.object = object
    }
}

/// Runs `body` on another thread and waits (up to 10 s) until it returns; returns whether it
/// did. For tests that need a second thread at a precise point.
@discardableResult
func runOnOtherThread(_ body: @escaping @Sendable () -> Void) -> Bool {
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        body()
        done.signal()
    }
    return done.wait(timeout: .now() + 10) == .success
}

/// A name for the current thread, to compare delivering threads.
func currentThreadName() -> String {
    "\(pthread_self())"
}

/// An element or observer whose deinit runs `onDeinit`: to check that subjects never free
/// user values while holding their lock (a deinit that touches the subject would deadlock).
final class DeinitProbe: Sendable {
    private let onDeinit: @Sendable () -> Void

    init(_ onDeinit: @escaping @Sendable () -> Void) {
        self.onDeinit = onDeinit
    }

    deinit {
        onDeinit()
    }
}

/// An observer whose deinit runs `onDeinit`.
final class DeinitObserver<Element>: ObserverType, @unchecked Sendable {
    // @unchecked: immutable.
    private let onDeinit: @Sendable () -> Void

    init(_ onDeinit: @escaping @Sendable () -> Void) {
        self.onDeinit = onDeinit
    }

    deinit {
        onDeinit()
    }

    func on(_ event: Event<Element>) {}
}
