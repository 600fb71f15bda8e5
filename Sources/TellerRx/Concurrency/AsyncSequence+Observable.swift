extension AsyncSequence where Self: Sendable, Element: Sendable {
    /// This async sequence as an ``Observable``.
    ///
    /// Each subscription starts a `Task` that iterates the sequence and sends each element
    /// from the task's thread, then completes (a `CancellationError` thrown by the sequence
    /// also completes it, as in RxSwift) or fails with the sequence's error. Disposing the
    /// subscription cancels the task.
    ///
    /// - Parameter detached: Whether to run the iteration in a detached task, which inherits
    ///   no priority or task-local values from the subscribing context.
    /// - Returns: An observable of the sequence's elements.
    public func asObservable(detached: Bool = false) -> Observable<Element> {
        iterated { detached ? Task.detached(operation: $0) : Task(operation: $0) }
    }

    /// This async sequence as an ``Observable``, iterated in a task of the given priority (RxSwift's
    /// spelling).
    ///
    /// Threads, completion, errors and disposal work as in `asObservable(detached:)`: each
    /// subscription starts a `Task` (not detached) that sends each element from the task's thread.
    ///
    /// - Parameter priority: The priority of the task that iterates the sequence; `nil` inherits
    ///   the subscribing context's.
    /// - Returns: An observable of the sequence's elements.
    public func asObservable(priority: TaskPriority?) -> Observable<Element> {
        iterated { Task(priority: priority, operation: $0) }
    }

    /// An observable whose every subscription iterates this sequence in the task `start` makes.
    private func iterated(
        in start: @escaping @Sendable (@escaping @Sendable () async -> Void) -> Task<Void, Never>
    ) -> Observable<Element> {
        Observable.create { observer in
            let task = start {
                do {
                    for try await element in self {
                        observer.onNext(element)
                    }
                    observer.onCompleted()
                } catch is CancellationError {
                    observer.onCompleted()
                } catch {
                    observer.onError(error)
                }
            }
            return Disposables.create { task.cancel() }
        }
    }
}

extension ObservableType {
    /// An observable of the elements of `sequence`, an async sequence.
    ///
    /// The same as `sequence.asObservable()`: each subscription iterates `sequence` in a new
    /// `Task`, sending each element from the task's thread; disposing it cancels the task.
    ///
    /// - Parameter sequence: The async sequence to iterate, once per subscription.
    /// - Returns: An observable of the sequence's elements.
    public static func from<Source: AsyncSequence & Sendable>(_ sequence: Source) -> Observable<Element>
    where Source.Element == Element {
        sequence.asObservable()
    }
}
