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
        Observable.create { observer in
            let iterate: @Sendable () async -> Void = {
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
            let task = detached ? Task.detached(operation: iterate) : Task(operation: iterate)
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
