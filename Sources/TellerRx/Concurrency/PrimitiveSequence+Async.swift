extension PrimitiveSequenceType where Trait == SingleTrait {
    /// Creates a ``Single`` whose outcome is the result of an async function.
    ///
    /// Each subscription starts a new `Task` running `work`, which succeeds with what it returns
    /// or fails with what it throws. Disposing the subscription cancels the task (and drops
    /// whatever it still produces). The outcome is delivered on the task's thread.
    ///
    /// ```swift
    /// let user = Single<User>.create { try await api.user(id: 42) }
    /// ```
    ///
    /// - Parameters:
    ///   - priority: The priority of the task; `nil` uses the default.
    ///   - work: The async work, run once per subscription.
    /// - Returns: A single of `work`'s result.
    public static func create(
        priority: TaskPriority? = nil,
        _ work: @escaping @Sendable () async throws -> Element
    ) -> Single<Element> {
        create(subscribe: { observer in
            let task = Task(priority: priority) {
                do {
                    observer(.success(try await work()))
                } catch {
                    observer(.failure(error))
                }
            }
            return Disposables.create { task.cancel() }
        })
    }

    /// Creates a ``Single`` from an async function: the RxSwift spelling of
    /// `create(priority:_:)`.
    ///
    /// - Parameter block: The async work, run in a new task for each subscription; disposing
    ///   the subscription cancels the task.
    /// - Returns: A single of `block`'s result.
    public static func from(_ block: @escaping @Sendable () async throws -> Element) -> Single<Element> {
        create(priority: nil, block)
    }
}

extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// Creates a ``Maybe`` whose outcome is the result of an async function: the element it
    /// returns, an empty completion if it returns `nil`, or the error it throws.
    ///
    /// Each subscription starts a new `Task` running `work`; disposing the subscription cancels
    /// it. The outcome is delivered on the task's thread.
    ///
    /// - Parameters:
    ///   - priority: The priority of the task; `nil` uses the default.
    ///   - work: The async work, run once per subscription.
    /// - Returns: A maybe of `work`'s result.
    public static func create(
        priority: TaskPriority? = nil,
        _ work: @escaping @Sendable () async throws -> Element?
    ) -> Maybe<Element> {
        create(subscribe: { observer in
            let task = Task(priority: priority) {
                do {
                    if let element = try await work() {
                        observer(.success(element))
                    } else {
                        observer(.completed)
                    }
                } catch {
                    observer(.error(error))
                }
            }
            return Disposables.create { task.cancel() }
        })
    }

    /// Creates a ``Maybe`` from an async function, as RxSwift does: a `nil` function gives an
    /// empty maybe.
    ///
    /// - Parameter block: The async work, run in a new task for each subscription; disposing
    ///   the subscription cancels the task.
    /// - Returns: A maybe of `block`'s result.
    public static func from(_ block: (@Sendable () async throws -> Element)?) -> Maybe<Element> {
        guard let block else { return .empty() }
        return create(priority: nil) { try await block() }
    }
}

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Never {
    /// Creates a ``Completable`` that runs an async function and completes when it returns,
    /// or fails with what it throws.
    ///
    /// Each subscription starts a new `Task` running `work`; disposing the subscription cancels
    /// it. The outcome is delivered on the task's thread.
    ///
    /// - Parameters:
    ///   - priority: The priority of the task; `nil` uses the default.
    ///   - work: The async work, run once per subscription.
    /// - Returns: A completable of `work`'s outcome.
    public static func create(
        priority: TaskPriority? = nil,
        _ work: @escaping @Sendable () async throws -> Void
    ) -> Completable {
        create(subscribe: { observer in
            let task = Task(priority: priority) {
                do {
                    try await work()
                    observer(.completed)
                } catch {
                    observer(.error(error))
                }
            }
            return Disposables.create { task.cancel() }
        })
    }

    /// Creates a ``Completable`` from an async function: the RxSwift spelling of
    /// `create(priority:_:)`.
    ///
    /// - Parameter block: The async work, run in a new task for each subscription; disposing
    ///   the subscription cancels the task.
    /// - Returns: A completable of `block`'s outcome.
    public static func from(_ block: @escaping @Sendable () async throws -> Void) -> Completable {
        create(priority: nil, block)
    }
}
