import Dispatch
import Foundation
@_spi(TellerInternals) import TellerRx

/// Subscribes to a sequence for ``BlockingObservable``, collects what it sends, and lets the
/// calling thread wait until it has enough.
final class BlockingCollector<Element: Sendable>: @unchecked Sendable {
    // @unchecked: the mutable state is in `state` (locked); the rest is immutable or Sendable.
    private struct State {
        var elements: [Element] = []
        var error: (any Error)?
        var isDone = false
    }

    private let maximumCount: Int?
    private let predicate: (@Sendable (Element) throws -> Bool)?
    private let state = LockedState(State())
    private let finished = DispatchSemaphore(value: 0)
    private let subscription = SingleAssignmentDisposable()

    init(maximumCount: Int?, predicate: (@Sendable (Element) throws -> Bool)?) {
        self.maximumCount = maximumCount
        self.predicate = predicate
    }

    var result: MaterializedSequenceResult<Element> {
        state.withLock { state in
            if let error = state.error {
                return .failed(elements: state.elements, error: error)
            }
            return .completed(elements: state.elements)
        }
    }

    func subscribe(to source: Observable<Element>) {
        subscription.setDisposable(source.subscribe { [self] event in on(event) })
    }

    /// Blocks until the sequence has given its answer or `timeout` seconds have passed. On a
    /// timeout the result becomes a failure with `RxError.timeout`. Always disposes the
    /// subscription before returning.
    func wait(timeout: TimeInterval?) {
        defer { subscription.dispose() }
        let deadline = timeout.map { Date(timeIntervalSinceNow: $0) }
        let answered: Bool
        if Thread.isMainThread {
            answered = spinMainRunLoop(until: deadline)
        } else if let deadline {
            answered = finished.wait(timeout: .now() + max(0, deadline.timeIntervalSinceNow)) == .success
        } else {
            waitForeverWarningOnMainQueue()
            answered = true
        }
        if !answered {
            finish(error: RxError.timeout)
        }
    }

    /// Waits with no time limit. Off the main thread but on the main queue (where Swift Testing
    /// runs `@MainActor` tests on Linux) main-queue work cannot run until this returns, so a
    /// long wait there is most likely a deadlock: say so once, then keep waiting.
    private func waitForeverWarningOnMainQueue() {
        guard MainQueueMarker.isOnMainQueue else {
            finished.wait()
            return
        }
        if finished.wait(timeout: .now() + .seconds(5)) == .success { return }
        let message =
            "TellerTesting warning: toBlocking() has waited 5 s on the main queue off the main thread; "
            + "main-queue work (MainScheduler, DispatchQueue.main) cannot run until it returns. "
            + "Await `.values` or `.value` instead, or pass a timeout.\n"
        FileHandle.standardError.write(Data(message.utf8))
        finished.wait()
    }

    /// Turns the main run loop (which also drains the main dispatch queue) in short slices,
    /// so main-queue work the sequence depends on can run while this thread waits.
    private func spinMainRunLoop(until deadline: Date?) -> Bool {
        while true {
            if state.withLock({ $0.isDone }) { return true }
            let sliceEnd = Date(timeIntervalSinceNow: 0.01)
            if let deadline, deadline <= Date() { return false }
            let limit = deadline.map { min($0, sliceEnd) } ?? sliceEnd
            if !RunLoop.current.run(mode: .default, before: limit) {
                // No run loop sources to service: nothing can run here, so sleep until the
                // answer arrives or the slice ends instead of spinning.
                _ = finished.wait(timeout: .now() + max(0, limit.timeIntervalSinceNow))
            }
        }
    }

    private func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            // Once the answer is known, a synchronous source may still be sending (its
            // subscription is disposed only when `subscribe` returns): don't ask the predicate.
            guard !state.withLock({ $0.isDone }) else { return }
            let keep: Bool
            do {
                keep = try predicate?(element) ?? true
            } catch {
                finish(error: error)
                return
            }
            guard keep else { return }
            let isEnough = state.withLock { state -> Bool in
                guard !state.isDone else { return false }
                state.elements.append(element)
                return maximumCount.map { state.elements.count >= $0 } ?? false
            }
            if isEnough { finish(error: nil) }
        case .error(let error):
            finish(error: error)
        case .completed:
            finish(error: nil)
        }
    }

    /// Records the end (the first one wins), stops the subscription and wakes the waiter.
    private func finish(error: (any Error)?) {
        let isFirst = state.withLock { state -> Bool in
            guard !state.isDone else { return false }
            state.isDone = true
            state.error = error
            return true
        }
        guard isFirst else { return }
        subscription.dispose()
        finished.signal()
    }
}

/// Tells whether the current code runs on the main dispatch queue (even off the main thread).
private enum MainQueueMarker {
    private static let key = DispatchSpecificKey<Bool>()
    private static let installed: Bool = {
        DispatchQueue.main.setSpecific(key: key, value: true)
        return true
    }()

    static var isOnMainQueue: Bool {
        _ = installed
        return DispatchQueue.getSpecific(key: key) == true
    }
}
