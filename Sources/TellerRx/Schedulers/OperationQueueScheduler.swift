import Foundation

/// Runs work on an `OperationQueue`: for larger chunks of background work whose concurrency you
/// tune with the queue's `maxConcurrentOperationCount`.
///
/// Each scheduled action becomes one `BlockOperation` with ``queuePriority``, run on whatever
/// thread the queue picks. With `maxConcurrentOperationCount` above 1, actions may run at the
/// same time, so don't use such a queue with `observe(on:)` when events must stay in order.
///
/// ```swift
/// let queue = OperationQueue()
/// queue.maxConcurrentOperationCount = 2
/// let scheduler = OperationQueueScheduler(operationQueue: queue)
/// images.observe(on: scheduler).map(resize)
/// ```
public final class OperationQueueScheduler: ImmediateSchedulerType {
    /// The queue the work runs on.
    public let operationQueue: OperationQueue
    /// The priority of every operation this scheduler adds.
    public let queuePriority: Operation.QueuePriority

    /// Creates a scheduler that adds its work to `operationQueue`.
    ///
    /// - Parameters:
    ///   - operationQueue: The queue to run work on.
    ///   - queuePriority: The priority of the operations it adds; `.normal` by default.
    public init(operationQueue: OperationQueue, queuePriority: Operation.QueuePriority = .normal) {
        self.operationQueue = operationQueue
        self.queuePriority = queuePriority
    }

    /// Adds `action` to the queue as one operation.
    ///
    /// - Parameters:
    ///   - state: Passed to `action`.
    ///   - action: The work, run on a thread of the queue; returns a disposable for any work it
    ///     starts.
    /// - Returns: A disposable that, disposed before the operation runs, keeps `action` from
    ///   running (best effort, as with RxSwift); disposed later, it disposes what `action`
    ///   returned.
    public func schedule<StateType: Sendable>(
        _ state: StateType,
        action: @escaping @Sendable (StateType) -> any Disposable
    ) -> any Disposable {
        let cancel = SingleAssignmentDisposable()
        let operation = BlockOperation {
            if cancel.isDisposed { return }
            cancel.setDisposable(action(state))
        }
        operation.queuePriority = queuePriority
        operationQueue.addOperation(operation)
        return cancel
    }
}
